import { bearerAt, filler, findAssignments, isPlaceholder } from './find-assignments.js';
import { shannonEntropy, TOKEN_RULES, type TokenRule } from './secret-rules.js';
import type { Detection } from './types.js';

/**
 * Where the scan starts. Page text is mostly prose, so instead of one big alternation tried at every character
 * (≈ 30 MB/s), the scan jumps with indexOf between the punctuation every prefixed token contains ('_', '-', '.',
 * '~') and looks up the letters just before it ("sk" + "_", "glpat" + "-", "SG" + ".", "sha256" + "~"); tokens
 * without such punctuation (AKIA…, AIza…) have a regex that starts with rare literals, which V8 skips through
 * quickly. Multi-character searches (indexOf of "Q~", a regex starting with a common lower-case letter) cost a
 * millisecond or more per megabyte of two-byte text each, so new shapes hang off these scans instead.
 */
const HEAD_RULES = new Map<string, TokenRule[]>();
const LETTER_RULES = new Map<string, TokenRule[]>();
for (const rule of TOKEN_RULES) {
  for (const t of rule.triggers) {
    const anchor = t.search(/[_.~-]/);
    const [map, key] = anchor <= 0 ? [LETTER_RULES, t] : [HEAD_RULES, t.slice(0, anchor + 1)];
    const list = map.get(key) ?? [];
    if (!list.includes(rule)) list.push(rule);
    map.set(key, list);
  }
}
/**
 * Token starts without an anchor, and `Bearer` (a token after it is a credential, see bearerAt). All start with
 * an upper-case letter or a rare lower-case one: each common first letter would slow the scan of every page.
 */
const LETTER_TRIGGERS = new RegExp([...LETTER_RULES.keys(), 'Bearer'].map(escapeRegExp).join('|'), 'g');
/** Longest run of letters/digits looked up before an anchor (the longest head, "sntrys"/"github"/"sq0atp", is 6). */
const MAX_HEAD = 8;
/** Longest JWT header searched backwards from its first '.' (default 1,024 characters). */
const MAX_JWT_HEADER = 1_024;

/** Longest PEM block masked (default 64 KiB); a block without its END line is masked up to this bound. */
export const MAX_PEM_CHARS = 65_536;
const PEM_HEADER = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_FOOTER = /-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_BODY_CHAR = /[A-Za-z0-9+/=\s:,-]/;
const URL_USERINFO = /([^\s/?#@:]{1,64}):([^\s/?#@]{1,128})@[A-Za-z0-9[]/y;
/** Header, payload and optional signature; '+' and '/' too, for JWT-like tokens in standard base64. */
const JWT = /eyJ[\w+/-]{10,}\.eyJ[\w+/-]{10,}\.(?:[\w+/-]{8,}={0,2})?/y;

/** Secrets: provider keys and tokens, PEM private keys, JWTs, URL passwords, and `key = value` credentials. */
export function findSecrets(text: string, out: Detection[]): void {
  for (const anchor of ['_', '-', '.', '~']) scanAnchor(text, anchor, out);
  LETTER_TRIGGERS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LETTER_TRIGGERS.exec(text)) !== null) {
    if (wordCharBefore(text, m.index)) continue;
    const rules = LETTER_RULES.get(m[0]);
    const end = rules ? tokenAt(text, m.index, rules, out) : bearerAt(text, m.index + 6, out);
    if (end > LETTER_TRIGGERS.lastIndex) LETTER_TRIGGERS.lastIndex = end;
  }
  eachLiteral(text, '-----BEGIN', pemAt, out);
  eachLiteral(text, '://', urlPasswordAt, out);
  findAssignments(text, out);
}

/** Calls `at` at every occurrence of `literal`, continuing after whatever it masked. */
function eachLiteral(text: string, literal: string, at: (text: string, i: number, out: Detection[]) => number, out: Detection[]): void {
  let i = text.indexOf(literal);
  while (i !== -1) {
    const end = at(text, i, out);
    i = text.indexOf(literal, Math.max(i + 1, end));
  }
}

function scanAnchor(text: string, anchor: string, out: Detection[]): void {
  let at = text.indexOf(anchor);
  while (at !== -1) {
    let next = at + 1;
    let h = at;
    while (h > 0 && at - h < MAX_HEAD && isAlnum(text.charCodeAt(h - 1))) h--;
    if (h < at && !wordCharBefore(text, h)) {
      const rules = HEAD_RULES.get(text.slice(h, at + 1));
      if (rules) next = Math.max(next, tokenAt(text, h, rules, out));
    }
    if (anchor === '.') next = Math.max(next, jwtEndingAt(text, at, out));
    else if (anchor === '~') next = Math.max(next, azureSecretAt(text, at, out));
    at = text.indexOf(anchor, next);
  }
}

/** A JWT found from the '.' after its header: walk back over base64url to `eyJ`. */
function jwtEndingAt(text: string, dot: number, out: Detection[]): number {
  let s = dot;
  const min = Math.max(0, dot - MAX_JWT_HEADER);
  while (s > min && isB64Url(text.charCodeAt(s - 1))) s--;
  if (dot - s < 13 || !text.startsWith('eyJ', s)) return -1;
  JWT.lastIndex = s;
  const m = JWT.exec(text);
  if (m === null) return -1;
  const end = s + m[0].length;
  out.push({ start: s, end, kind: 'secret' });
  return end;
}

function tokenAt(text: string, at: number, rules: readonly TokenRule[], out: Detection[]): number {
  for (const rule of rules) {
    rule.re.lastIndex = at;
    const m = rule.re.exec(text);
    if (m === null || (rule.accept && !rule.accept(m[0])) || (rule.entropy !== undefined && shannonEntropy(m[0]) <= rule.entropy)) continue;
    if (filler(m[0]) && !rule.checksum?.(m[0])) continue;
    const end = at + m[0].length;
    // A token glued to more token characters is part of something longer (a hash, a path): not this shape.
    if (end < text.length && (isAlnum(text.charCodeAt(end)) || text.charCodeAt(end) === 95)) continue;
    const lead = rule.lead?.exec(text.slice(Math.max(0, at - 64), at))?.[0].length ?? 0;
    if (rule.lead && lead === 0 && !rule.lead.test('')) continue;
    out.push({ start: at - lead, end, kind: 'secret' });
    return end;
  }
  return -1;
}

/** Azure AD client secrets: three characters, a digit, `Q~`, then 31–34 characters (gitleaks azure-ad-client-secret). */
function azureSecretAt(text: string, tilde: number, out: Detection[]): number {
  if (text[tilde - 1] !== 'Q') return -1;
  const at = tilde - 1;
  const start = at - 4;
  if (start < 0 || !/^[\w~.]{3}\d$/.test(text.slice(start, at)) || (start > 0 && /[\w~.-]/.test(text[start - 1]!))) return -1;
  const m = /[\w~.-]{31,34}(?![\w~-]|\.[\w~.-])/y; // a full stop after it ends the sentence
  m.lastIndex = at + 2;
  const body = m.exec(text);
  if (body === null) return -1;
  const end = at + 2 + body[0].length;
  out.push({ start, end, kind: 'secret' });
  return end;
}

function pemAt(text: string, at: number, out: Detection[]): number {
  PEM_HEADER.lastIndex = at;
  const header = PEM_HEADER.exec(text);
  if (header === null) return -1;
  const limit = Math.min(text.length, at + MAX_PEM_CHARS);
  const endAt = text.indexOf('-----END', at + header[0].length);
  let end: number;
  if (endAt !== -1 && endAt < limit) {
    PEM_FOOTER.lastIndex = endAt;
    const footer = PEM_FOOTER.exec(text);
    end = footer ? endAt + footer[0].length : endAt + 8;
  } else {
    // No footer (truncated page text): mask the base64 body that follows, so half a key never leaks.
    end = at + header[0].length;
    while (end < limit && PEM_BODY_CHAR.test(text[end]!)) end++;
    while (end > at && /\s/.test(text[end - 1]!)) end--;
  }
  out.push({ start: at, end, kind: 'secret' });
  return end;
}

/**
 * `scheme://user:password@host` — the user and the password (the user part is the token itself in forms such as
 * `https://<key>:x@host` or sidekiq's `https://<id>:<secret>@gems.contribsys.com`); the host stays readable.
 */
function urlPasswordAt(text: string, at: number, out: Detection[]): number {
  let s = at;
  while (s > 0 && at - s < 32 && /[A-Za-z0-9+.-]/.test(text[s - 1]!)) s--;
  if (s === at || !/[A-Za-z]/.test(text[s]!)) return -1;
  URL_USERINFO.lastIndex = at + 3;
  const m = URL_USERINFO.exec(text);
  if (m === null) return -1;
  if (isPlaceholder(m[2]!)) return -1;
  const start = at + 3;
  const end = start + m[1]!.length + 1 + m[2]!.length;
  out.push({ start, end, kind: 'secret' });
  return end;
}

/** A letter or digit right before a token start means the "prefix" is the tail of a longer word. */
function wordCharBefore(text: string, at: number): boolean {
  if (at === 0) return false;
  const c = text.charCodeAt(at - 1);
  return isAlnum(c) || c === 95;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isB64Url(c: number): boolean {
  return isAlnum(c) || c === 45 || c === 95;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
