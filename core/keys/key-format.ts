/**
 * Kit API key format (CONTRACT §1): `kit_pub_` or `kit_sec_`, 32 base62 characters of randomness,
 * then 6 base62 characters of CRC32 over those 32. The checksum lets every host refuse a mistyped
 * or truncated key before any database lookup.
 */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIXES = Object.freeze({ publishable: 'kit_pub_', secret: 'kit_sec_' } as const);
export type KeyKind = keyof typeof KEY_PREFIXES;

const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_SHAPE = /^kit_(pub|sec)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3) of an ASCII string. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Base62 of a non-negative integer, left-padded with '0' to `width`. */
export function toBase62(value: number, width: number): string {
  let out = '';
  let v = value;
  do {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  } while (v > 0);
  return out.padStart(width, '0');
}

/** Builds a key from 32 random bytes-or-more (taken modulo 62; a tiny bias that does not matter at 190 bits). */
export function formatKey(kind: KeyKind, randomBytes: Uint8Array): string {
  if (randomBytes.length < BODY_LENGTH) throw new RangeError(`formatKey needs ${BODY_LENGTH} random bytes`);
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += BASE62[randomBytes[i]! % 62];
  return KEY_PREFIXES[kind] + body + toBase62(crc32(body), CHECKSUM_LENGTH);
}

export type ParsedKey = { readonly kind: KeyKind; readonly body: string };
export type KeyProblem = 'missing' | 'prefix' | 'shape' | 'checksum';

/** Checks prefix, shape and checksum; no I/O. */
export function parseKey(value: unknown): { ok: true; key: ParsedKey } | { ok: false; problem: KeyProblem } {
  if (typeof value !== 'string' || value.length === 0) return { ok: false, problem: 'missing' };
  if (!value.startsWith(KEY_PREFIXES.publishable) && !value.startsWith(KEY_PREFIXES.secret)) return { ok: false, problem: 'prefix' };
  const m = KEY_SHAPE.exec(value);
  if (!m) return { ok: false, problem: 'shape' };
  if (toBase62(crc32(m[2]!), CHECKSUM_LENGTH) !== m[3]) return { ok: false, problem: 'checksum' };
  return { ok: true, key: { kind: m[1] === 'pub' ? 'publishable' : 'secret', body: m[2]! } };
}

/** The non-secret display parts of a key: its prefix plus first characters, and its last 4 characters. */
export function keyDisplay(value: string): { prefix: string; last4: string } {
  return { prefix: value.slice(0, 12), last4: value.slice(-4) };
}
