import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { BASE62, formatKey, type KeyKind } from '../core/keys/key-format.js';

/** `length` random base62 characters (rejection sampling, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * Random bytes for ids (which are not secrets: request ids are sent in headers and logged) drawn from the CSPRNG a
 * block at a time — one call per ~300 ids instead of one per id (every request gets one). Each byte is used once.
 * Secrets (tokens, key values) keep their own `randomBytes`.
 */
const idPool = Buffer.alloc(8192);
let idPoolAt = idPool.length;

function idBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    if (idPoolAt >= idPool.length) {
      randomFillSync(idPool);
      idPoolAt = 0;
    }
    const byte = idPool[idPoolAt++]!;
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** A new id with its kind prefix, e.g. `key_4f9…` (24 random base62 characters, ~143 bits). */
export function newId(prefix: 'usr' | 'org' | 'key' | 'inv' | 'req'): string {
  return `${prefix}_${idBase62(24)}`;
}

/** A new API key value (CONTRACT §1 format). */
export function newKeyValue(kind: KeyKind): string {
  return formatKey(kind, randomBytes(32));
}

/** A new invitation token; shown once, stored as its SHA-256. */
export function newInvitationToken(): string {
  return `kit_inv_${randomBase62(40)}`;
}

/** Lower-case hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
