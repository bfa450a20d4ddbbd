import type { Detection } from './types.js';

/**
 * Credentials written as assignments — `password=…`, `"client_secret": "…"`, `API_TOKEN: …`, `Authorization: Bearer …`
 * — in code, config files, curl commands and URLs shown on a page. Only the value is masked, so the reader still
 * sees which setting it was. Case-insensitive triggers; everything else is decided at the few places they occur.
 */
/** Key names that hold a credential (matched in the lower-cased key). */
const KEY_WORD = /pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|creds|authorization/g;
/** Longest key name and value considered (default 64 and 512 characters). */
export const MAX_KEY_CHARS = 64;
export const MAX_VALUE_CHARS = 512;

/** Key endings that name a property of a credential, not the credential (`max_tokens`, `token_type`, `password_reset_url`). */
const META_SUFFIX = /^(?:s|[_.-]?(?:count|limit|type|len|length|url|uri|endpoint|name|id|file|path|field|hint|policy|expir\w*|expires\w*|ttl|at|time|reset\w*|min|max|size|label|prompt|placeholder|required|format|mode|header|param\w*|index|usage|budget|window|strategy|rotation|manager|store|prefix|version|enabled|storage|provider|scope|audience|issuer|lifetime|validation|strength|confirm\w*|change\w*|forgot\w*|page|form|input|button|link|text|message|title|description|help|error))(?![A-Za-z0-9])/i;
const SEPARATOR = /["'`]?[ \t]*(?::{1,3}=|[.?]=|=>|==|[:=])[ \t]*/y;
const SCHEME = /(?:bearer|basic|token|digest|bot|jwt|apikey)[ \t]+/iy;
const UNQUOTED_VALUE = /[^\s'"`,;<>(){}[\]]{1,512}/y;
/** In a URL query (`?token=…&lang=en`) '&' ends the value; elsewhere it may be part of a password. */
const QUERY_VALUE = /[^\s'"`,;&<>(){}[\]#]{1,512}/y;

/** Type names between a key and its '=' in typed declarations (`var apiToken string = "…"`, `token: str = …`). */
const TYPE_NAME = /^(?:string|str|char|bytes|secretstr|securestring)$/;

/**
 * Every assignment has a ':' or '=' after its key, and those are rare in prose, so the scan jumps between them
 * with indexOf and reads the key backwards. Two more forms of code: a quoted key and value passed together
 * (`setProperty("API_TOKEN", "…")`, found from a quote followed by ',') and an element named like a key
 * (`<apiToken>…</apiToken>`, found from '<'). `Bearer <token>` outside a header: bearerAt.
 */
export function findAssignments(text: string, out: Detection[]): void {
  for (const sep of [':', '=']) {
    let at = text.indexOf(sep);
    while (at !== -1) {
      const end = assignmentBefore(text, at, out);
      at = text.indexOf(sep, Math.max(at + 1, end));
    }
  }
  for (const q of ['"', "'"]) {
    for (let at = text.indexOf(q, 1); at !== -1; at = text.indexOf(q, at + 1)) if (text[at + 1] === ',') at = Math.max(at, quotedPairAt(text, at + 1, out));
  }
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) at = Math.max(at, elementAt(text, at, out));
}

/** The assignment whose separator is at `sep`, if its key names a credential; returns the value's end or -1. */
function assignmentBefore(text: string, sep: number, out: Detection[]): number {
  let k = sep;
  // `.=` (PHP) and `?=` (make): the operator's first character belongs to the separator.
  if (text[sep] === '=' && k > 0 && (text[k - 1] === '.' || text[k - 1] === '?')) k--;
  while (k > 0 && sep - k < 8 && (text[k - 1] === ' ' || text[k - 1] === '\t')) k--;
  if (k > 0 && (text[k - 1] === '"' || text[k - 1] === "'" || text[k - 1] === '`')) k--;
  const keyEnd = k;
  while (k > 0 && keyEnd - k < MAX_KEY_CHARS && isKeyChar(text.charCodeAt(k - 1))) k--;
  if (k === keyEnd) return -1;
  const inQuery = k > 0 && (text[k - 1] === '?' || text[k - 1] === '&');
  const key = text.slice(k, keyEnd).toLowerCase();
  let credential = credentialWord(text, k, key);
  if (credential === null && key.length <= 12 && TYPE_NAME.test(key)) {
    // A typed declaration: the name before the type is the key.
    let e = k;
    while (e > 0 && k - e < 8 && /[ \t:*&]/.test(text[e - 1]!)) e--;
    let b = e;
    while (b > 0 && e - b < MAX_KEY_CHARS && isKeyChar(text.charCodeAt(b - 1))) b--;
    if (b < e && e < k) credential = credentialWord(text, b, text.slice(b, e).toLowerCase());
  } else if (credential === null && key === 'value') {
    // .NET-style settings: `<add key="ApiToken" value="…" />` — the key is the attribute before.
    const attr = /(?:key|name)[ \t]*=[ \t]*["']([\w.:-]{1,64})["'][ \t]+$/i.exec(text.slice(Math.max(0, k - 80), k));
    if (attr) credential = credentialWord(attr[1]!, 0, attr[1]!.toLowerCase());
  }
  if (credential === null) return text[sep] === ':' ? curlUserAt(text, sep, out) : -1;
  return assignmentAt(text, keyEnd, credential, inQuery, out);
}

/**
 * The credential word the key at `k` (`key` = its lower-cased text) ends a word part with (`api_token`,
 * `secretKey`), or null (`secretary`, `max_tokens`).
 */
function credentialWord(text: string, k: number, key: string): string | null {
  if (/csrf|xsrf|authenticity/.test(key)) return null; // anti-forgery tokens travel with every form: not credentials
  const keyEnd = k + key.length;
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
  return credential;
}

/**
 * `"API_TOKEN", "…"` — a quoted key, a comma and a quoted value, as in `setProperty`, `put` or `os.environ` calls.
 * Lists of names look the same (`["token", "expiry"]`, `['password', 'secrets.*']`), so the value must look
 * generated: the strict check, and a digit or an upper-case letter inside a word.
 */
function quotedPairAt(text: string, comma: number, out: Detection[]): number {
  const q = text[comma - 1]!;
  let k = comma - 1;
  while (k > 0 && comma - 1 - k < MAX_KEY_CHARS && isKeyChar(text.charCodeAt(k - 1))) k--;
  if (k === comma - 1 || text[k - 1] !== q || credentialWord(text, k, text.slice(k, comma - 1).toLowerCase()) === null) return -1;
  let v = comma + 1;
  while (v < text.length && v - comma < 8 && (text[v] === ' ' || text[v] === '\t')) v++;
  if (text[v] !== '"' && text[v] !== "'") return -1;
  const value = valueAt(text, v, UNQUOTED_VALUE);
  const token = value === null ? '' : text.slice(value[0], value[1]);
  if (value === null || !credentialLike(token, true) || !/\d|[a-z][A-Z]/.test(token)) return -1;
  out.push({ start: value[0], end: value[1], kind: 'secret' });
  return value[1];
}

/**
 * `curl -u user:password` / `--user user:password` (found from the ':'): the pair is masked when `curl` starts the
 * command, on the same line or one continued with a backslash.
 */
function curlUserAt(text: string, colon: number, out: Detection[]): number {
  let k = colon;
  for (let c = 0; k > 0 && colon - k < 128; k--) {
    c = text.charCodeAt(k - 1);
    if (c <= 32 || c === 34 || c === 39 || c === 61) break; // space, quotes, '='
  }
  const before = text.slice(Math.max(0, k - 16), k);
  if (k === colon || !before.includes('-u')) return -1; // cheap test first: most colons are not in a curl command
  const flag = /(?:^|[ \t])(?:-u|--user)(?:=|[ \t]{1,5})(["']?)$/.exec(before);
  if (flag === null) return -1;
  const cmd = text.lastIndexOf('curl', k);
  if (cmd === -1 || k - cmd > 400 || /[^\\]\n/.test(text.slice(cmd, k)) || (cmd > 0 && isKeyChar(text.charCodeAt(cmd - 1)))) return -1;
  const pass = /[^\s"']{1,128}/y;
  pass.lastIndex = colon + 1;
  const m = pass.exec(text);
  if (m === null || isPlaceholder(m[0]) || /^[$%{<]/.test(m[0])) return -1; // `$PASS`, `${{ secrets.x }}`: references
  const end = colon + 1 + m[0].length;
  if (flag[1] && text[end] !== flag[1]) return -1;
  out.push({ start: k, end, kind: 'secret' });
  return end;
}

/** `<apiToken>…</apiToken>`: an element named like a credential key holding one token. */
function elementAt(text: string, lt: number, out: Detection[]): number {
  const open = /<([\w.-]{1,64})>/y;
  open.lastIndex = lt;
  const m = open.exec(text);
  if (m === null || credentialWord(text, lt + 1, m[1]!.toLowerCase()) === null) return -1;
  const body = lt + m[0].length;
  const found = text.slice(body, body + MAX_VALUE_CHARS + 70).indexOf(`</${m[1]}>`); // bounded: never a scan of the page
  if (found === -1 || found > MAX_VALUE_CHARS) return -1;
  const close = body + found;
  let start = body;
  let end = close;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  const value = text.slice(start, end);
  if (value.length === 0 || /[\s<]/.test(value) || !credentialLike(value, false)) return -1;
  out.push({ start, end, kind: 'secret' });
  return close;
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
  if (!quoted && text[end] === '(') return -1; // `token = nextToken(…)`: a call, not a value
  if (!credentialLike(text.slice(start, end), colon && !quoted)) return -1;
  out.push({ start, end, kind: 'secret' });
  return end;
}

/**
 * `Bearer <token>` outside an Authorization header (curl lines, prose): the token must look generated. `at` is the
 * index after "Bearer"; find-secrets.ts finds the word in its scan for literal token starts.
 */
export function bearerAt(text: string, at: number, out: Detection[]): number {
  if (at > 6 && isKeyChar(text.charCodeAt(at - 7))) return -1;
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
  if (/\s/.test(value) && /[=<>]/.test(value)) return false; // a code fragment, not a passphrase
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
  if (filler(value)) return true;
  const v = value.toLowerCase();
  if (/^[a-z_]+(?:\.[a-z_]+)+$/i.test(value)) return true; // a reference such as var.db_password or this.token
  return /^(?:[*x•.#_-]+|<[^>]*>|\[[^\]]*\]|\$\{[^}]*\}|\{\{[^}]*\}\}|%[^%]*%|\$[a-z_][a-z0-9_]*|process\.env\.\w+|null|none|nil|undefined|true|false|empty|required|optional|string|str|text|value|example|sample|dummy|test|changeme|change_me|redacted|hidden|secret|password|passwd|pass|pwd|token|key|apikey|api_key|placeholder|your[_-]?[a-z_-]*|my[_-]?(?:password|secret|token|key)|\.\.\.|…)$/.test(v);
}

function isKeyChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}

/**
 * Token-shaped filler in docs: runs of five or more identical characters making up half the value
 * (`ghp_xxxxxxxx…`, `A3-XXXXXX-…`, `glc_1111…`), AWS's documented example keys (`…EXAMPLE`) and `…YOUR_…` slots.
 * Real formats may hold such a run (Twitter bearer tokens start with 22 'A's) but never as half of the token.
 */
export function filler(value: string): boolean {
  if (value.includes('EXAMPLE') || value.includes('YOUR_')) return true;
  let runs = 0;
  for (const m of value.matchAll(/(.)\1{4,}/g)) runs += m[0].length;
  return runs * 2 >= value.length;
}
