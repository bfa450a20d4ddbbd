import type { Detection } from './types.js';

/**
 * Credentials written as assignments — `password=…`, `"client_secret": "…"`, `API_TOKEN: …`, `Authorization: Bearer …`
 * — in code, config files, curl commands and URLs shown on a page. Only the value is masked, so the reader still
 * sees which setting it was. Case-insensitive triggers; everything else is decided at the few places they occur.
 */
/** Key names that hold a credential (matched in the lower-cased key). */
const KEY_WORD = /pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|authorization/g;
/** Longest key name and value considered (default 64 and 512 characters). */
export const MAX_KEY_CHARS = 64;
export const MAX_VALUE_CHARS = 512;

/** Key endings that name a property of a credential, not the credential (`max_tokens`, `token_type`, `password_reset_url`). */
const META_SUFFIX = /^(?:s|_?(?:count|limit|type|len|length|url|uri|endpoint|name|id|file|path|field|hint|policy|expir\w*|expires\w*|ttl|at|reset\w*|min|max|size|label|prompt|placeholder|required|format|mode|header|param\w*|index|usage|budget|window|strategy|rotation|manager|store|prefix|version|enabled|storage|provider|scope|audience|issuer|lifetime|validation|strength|confirm\w*|change\w*|forgot\w*|page|form|input|button|link|text|message|title|description|help|error))(?![A-Za-z0-9])/i;
const SEPARATOR = /["'`]?[ \t]*(?::=|=>|==|[:=])[ \t]*/y;
const SCHEME = /(?:bearer|basic|token|digest|bot|jwt|apikey)[ \t]+/iy;
const UNQUOTED_VALUE = /[^\s'"`,;<>(){}[\]]{1,512}/y;
/** In a URL query (`?token=…&lang=en`) '&' ends the value; elsewhere it may be part of a password. */
const QUERY_VALUE = /[^\s'"`,;&<>(){}[\]#]{1,512}/y;

/**
 * Every assignment has a ':' or '=' after its key, and those are rare in prose, so the scan jumps between them
 * with indexOf and reads the key backwards; `Bearer` outside a header is found from its own letters.
 */
export function findAssignments(text: string, out: Detection[]): void {
  for (const sep of [':', '=']) {
    let at = text.indexOf(sep);
    while (at !== -1) {
      const end = assignmentBefore(text, at, out);
      at = text.indexOf(sep, Math.max(at + 1, end));
    }
  }
  for (let at = text.indexOf('earer'); at !== -1; at = text.indexOf('earer', at + 5)) {
    if (at > 0 && (text[at - 1] === 'B' || text[at - 1] === 'b') && (at < 2 || !isKeyChar(text.charCodeAt(at - 2)))) bearerAt(text, at + 5, out);
  }
}

/** The assignment whose separator is at `sep`, if its key names a credential; returns the value's end or -1. */
function assignmentBefore(text: string, sep: number, out: Detection[]): number {
  let k = sep;
  while (k > 0 && sep - k < 8 && (text[k - 1] === ' ' || text[k - 1] === '\t')) k--;
  if (k > 0 && (text[k - 1] === '"' || text[k - 1] === "'" || text[k - 1] === '`')) k--;
  const keyEnd = k;
  while (k > 0 && keyEnd - k < MAX_KEY_CHARS && isKeyChar(text.charCodeAt(k - 1))) k--;
  if (k === keyEnd) return -1;
  const key = text.slice(k, keyEnd).toLowerCase();
  const inQuery = k > 0 && (text[k - 1] === '?' || text[k - 1] === '&');
  KEY_WORD.lastIndex = 0;
  let word: RegExpExecArray | null;
  let credential: string | null = null;
  while ((word = KEY_WORD.exec(key)) !== null) {
    // The key word must end a word part: `secretary` and `tokenizer` are words, `secretKey` and `token_value` are keys.
    const after = keyEnd - k > word.index + word[0].length ? text.charCodeAt(k + word.index + word[0].length) : 0;
    if (after >= 97 && after <= 122 && !key.startsWith('key', word.index + word[0].length)) continue;
    if (META_SUFFIX.test(key.slice(word.index + word[0].length))) continue;
    credential = word[0];
  }
  if (credential === null) return -1;
  return assignmentAt(text, keyEnd, credential, inQuery, out);
}

function assignmentAt(text: string, keyEnd: number, word: string, inQuery: boolean, out: Detection[]): number {
  SEPARATOR.lastIndex = keyEnd;
  const sep = SEPARATOR.exec(text);
  if (sep === null || sep[0].includes('==')) return -1;
  let v = keyEnd + sep[0].length;
  if (word === 'authorization' || word === 'token') {
    SCHEME.lastIndex = v;
    const scheme = SCHEME.exec(text);
    if (scheme) v += scheme[0].length;
  }
  const colon = sep[0].includes(':') && !sep[0].includes('=');
  const value = valueAt(text, v, inQuery ? QUERY_VALUE : UNQUOTED_VALUE);
  if (value === null) return -1;
  const [start, end, quoted] = value;
  if (!credentialLike(text.slice(start, end), colon && !quoted)) return -1;
  out.push({ start, end, kind: 'secret' });
  return end;
}

/** `Bearer <token>` outside an Authorization header (curl lines, prose): the token must look generated. */
function bearerAt(text: string, at: number, out: Detection[]): number {
  const gap = /[ \t]+/y;
  gap.lastIndex = at;
  const g = gap.exec(text);
  if (g === null) return -1;
  const value = valueAt(text, at + g[0].length, UNQUOTED_VALUE);
  if (value === null || value[2]) return -1;
  const [start, end] = value;
  const token = text.slice(start, end);
  if (token.length < 16 || !credentialLike(token, true)) return -1;
  out.push({ start, end, kind: 'secret' });
  return end;
}

/** The value after a separator: quoted on one line, or a run of non-space, non-delimiter characters. */
function valueAt(text: string, at: number, unquoted: RegExp): [number, number, boolean] | null {
  const q = text[at];
  if (q === '"' || q === "'" || q === '`') {
    let e = at + 1;
    const limit = Math.min(text.length, at + 1 + MAX_VALUE_CHARS);
    while (e < limit && text[e] !== q && text[e] !== '\n') e++;
    if (e >= limit || text[e] !== q || e === at + 1) return null;
    return [at + 1, e, true];
  }
  unquoted.lastIndex = at;
  const m = unquoted.exec(text);
  if (m === null) return null;
  let end = at + Math.min(m[0].length, MAX_VALUE_CHARS);
  // Sentence punctuation after a value ("password: hunter22.") is not part of it.
  while (end > at + 1 && /[.!?:]/.test(text[end - 1]!)) end--;
  return [at, end, false];
}

/**
 * Whether a value could be a credential rather than prose or a template. `strict` applies to unquoted values
 * after a colon, where prose ("Token: a unit of text") looks the same as YAML: there the value must mix
 * character classes the way generated or chosen passwords do.
 */
function credentialLike(value: string, strict: boolean): boolean {
  if (value.length < 4 || isPlaceholder(value)) return false;
  if (/^(?:kit_pub_|pk_(?:live|test)_)/.test(value)) return false; // publishable by design
  if (/^\d+$/.test(value) && value.length < 6) return false;
  if (/^\d+(?:\.\d+)+$/.test(value)) return false; // versions, decimals
  if (/^(?:https?:)?\/\//i.test(value)) return false; // a URL is where a token comes from, not the token
  if (!strict) return true;
  if (value.length < 6) return false;
  let classes = 0;
  if (/[a-z]/.test(value)) classes++;
  if (/[a-z0-9][A-Z]/.test(value)) classes++; // upper case inside a word, not Title Case
  if (/\d/.test(value)) classes++;
  if (/[^A-Za-z0-9.,'’-]/.test(value)) classes++; // symbols other than prose punctuation
  return classes >= 2;
}

/** Values that stand for a secret in docs and templates rather than being one. */
export function isPlaceholder(value: string): boolean {
  const v = value.toLowerCase();
  return /^(?:[*x•.#_-]+|<[^>]*>|\[[^\]]*\]|\$\{[^}]*\}|\{\{[^}]*\}\}|%[^%]*%|\$[a-z_][a-z0-9_]*|process\.env\.\w+|null|none|nil|undefined|true|false|empty|required|optional|string|str|text|value|example|sample|dummy|test|changeme|change_me|redacted|hidden|secret|password|passwd|pass|pwd|token|key|apikey|api_key|placeholder|your[_-]?[a-z_-]*|my[_-]?(?:password|secret|token|key)|\.\.\.|…)$/.test(v);
}

function isKeyChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}
