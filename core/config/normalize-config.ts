import { KitError } from '../errors/index.js';
import { parseKey } from '../keys/key-format.js';
import {
  CONTEXT_BOUNDS, CONTEXT_DEFAULTS, DEFAULT_REFUSAL_MESSAGE, DEFAULT_REPLACEMENT, MAX_ALLOW_ENTRIES, MAX_ALLOW_ENTRY_CHARS,
  MAX_PATTERN_LENGTH, MAX_PATTERNS, NO_REDACTION, PAGE_CONTEXT,
} from './defaults.js';
import { vetPattern } from './pattern-safety.js';
import { MODEL_OPTIONS, MODES, type Callback, type ContextConfig, type KitConfig, type RedactConfig } from './types.js';

const KNOWN_OPTIONS = new Set([
  'apiKey', 'mode', 'model', 'context', 'redact', 'gpuBenchmark', 'groundingMinMatches', 'grounding', 'autoOpen',
  'refusalMessage', 'onReady', 'onError', 'onMessage', 'endpoint', 'strings',
]);
const CONTEXT_KEYS = new Set(['urls', 'sitemap', 'maxPages', 'maxCharsPerPage', 'maxCorpusChars', 'fetchTimeoutMs', 'concurrency', 'sameOriginOnly', 'credentials']);
const REDACT_KEYS = new Set(['secrets', 'pii', 'patterns', 'replacement', 'allow']);
/** Placeholder origin used only to check that relative URLs parse; crawl planning resolves them against the page. */
const PARSE_BASE = 'https://kit.invalid/';

export type NormalizedConfig = { config: KitConfig; warnings: string[] };

/**
 * Validates and normalises Kit.init options (SPEC §2.1–2.3, defaults CONTRACT §8).
 * Throws KitError('invalid_config') naming the option and what was expected; anything else is a bug.
 * Unknown options become warnings. Invariants of the result:
 * - apiKey is a well-formed publishable key (prefix and checksum);
 * - context.maxPages ∈ [1, 100], every number option a positive integer within CONTEXT_BOUNDS;
 * - redact.patterns are global RegExps that passed vetPattern and never match the empty string;
 * - endpoint is null or an absolute http(s) URL without trailing slash, query or fragment.
 */
export function normalizeConfig(input: unknown): NormalizedConfig {
  if (!isPlainObject(input)) throw invalid('config', 'an object such as { apiKey: "kit_pub_…" }', input);
  const warnings: string[] = [];
  for (const key of Object.keys(input)) {
    if (!KNOWN_OPTIONS.has(key)) warnings.push(`Unknown option "${key}" is ignored.`);
  }
  const config: KitConfig = {
    apiKey: normalizeApiKey(input.apiKey),
    mode: oneOf('mode', input.mode, MODES, 'auto'),
    model: oneOf('model', input.model, MODEL_OPTIONS, 'auto'),
    context: normalizeContext(input.context, warnings),
    redact: normalizeRedact(input.redact, warnings),
    gpuBenchmark: bool('gpuBenchmark', input.gpuBenchmark, true),
    groundingMinMatches: positiveInt('groundingMinMatches', input.groundingMinMatches, 1, 50),
    grounding: bool('grounding', input.grounding, true),
    autoOpen: bool('autoOpen', input.autoOpen, false),
    refusalMessage: nonEmptyString('refusalMessage', input.refusalMessage, DEFAULT_REFUSAL_MESSAGE),
    onReady: callback('onReady', input.onReady),
    onError: callback('onError', input.onError),
    onMessage: callback('onMessage', input.onMessage),
    endpoint: normalizeEndpoint(input.endpoint),
    strings: normalizeStrings(input.strings),
  };
  return { config: Object.freeze(config), warnings };
}

function normalizeApiKey(value: unknown): string {
  const parsed = parseKey(value);
  if (!parsed.ok) {
    if (parsed.problem === 'missing') throw new KitError('invalid_config', 'apiKey is required: a publishable key beginning with "kit_pub_".', { details: { option: 'apiKey' } });
    if (parsed.problem === 'prefix') throw new KitError('invalid_config', 'apiKey must be a publishable key beginning with "kit_pub_".', { details: { option: 'apiKey' } });
    throw new KitError('invalid_config', `apiKey is not a valid Kit key (${parsed.problem === 'checksum' ? 'its checksum does not match: copy it again' : 'wrong length or characters'}).`, { details: { option: 'apiKey' } });
  }
  if (parsed.key.kind === 'secret') {
    throw new KitError('invalid_config', 'apiKey is a secret key (kit_sec_…): never put it in a web page. Use a publishable key (kit_pub_…) in the browser.', { details: { option: 'apiKey' } });
  }
  return value as string;
}

function normalizeContext(value: unknown, warnings: string[]): ContextConfig {
  if (value === undefined || value === 'page') return PAGE_CONTEXT;
  if (value === 'site') return Object.freeze({ ...CONTEXT_DEFAULTS, scope: 'site', urls: Object.freeze([]) });
  if (!isPlainObject(value)) throw invalid('context', "'page', 'site' or an object such as { urls: ['/pricing'] }", value);
  for (const key of Object.keys(value)) if (!CONTEXT_KEYS.has(key)) warnings.push(`Unknown option "context.${key}" is ignored.`);

  let urls: string[] = [];
  if (value.urls !== undefined) {
    if (!Array.isArray(value.urls) || value.urls.length > CONTEXT_BOUNDS.urls) throw invalid('context.urls', `an array of at most ${CONTEXT_BOUNDS.urls} URLs or paths`, value.urls);
    urls = value.urls.map((u, i) => urlLike(`context.urls[${i}]`, u));
  }
  const sitemap = value.sitemap === undefined ? (value.urls === undefined ? CONTEXT_DEFAULTS.sitemap : null) : urlLike('context.sitemap', value.sitemap);
  const credentials = oneOf('context.credentials', value.credentials, ['omit', 'same-origin'] as const, CONTEXT_DEFAULTS.credentials);
  const sameOriginOnly = bool('context.sameOriginOnly', value.sameOriginOnly, true);
  if (!sameOriginOnly) warnings.push('context.sameOriginOnly: false is not supported: crawling never leaves the page\'s origin.');
  return Object.freeze({
    scope: value.urls !== undefined ? 'urls' : 'site',
    urls: Object.freeze(urls),
    sitemap,
    maxPages: positiveInt('context.maxPages', value.maxPages, CONTEXT_DEFAULTS.maxPages, CONTEXT_BOUNDS.maxPages),
    maxCharsPerPage: positiveInt('context.maxCharsPerPage', value.maxCharsPerPage, CONTEXT_DEFAULTS.maxCharsPerPage, CONTEXT_BOUNDS.maxCharsPerPage),
    maxCorpusChars: positiveInt('context.maxCorpusChars', value.maxCorpusChars, CONTEXT_DEFAULTS.maxCorpusChars, CONTEXT_BOUNDS.maxCorpusChars),
    fetchTimeoutMs: positiveInt('context.fetchTimeoutMs', value.fetchTimeoutMs, CONTEXT_DEFAULTS.fetchTimeoutMs, CONTEXT_BOUNDS.fetchTimeoutMs),
    concurrency: positiveInt('context.concurrency', value.concurrency, CONTEXT_DEFAULTS.concurrency, CONTEXT_BOUNDS.concurrency),
    sameOriginOnly: true,
    credentials,
  });
}

function normalizeRedact(value: unknown, warnings: string[]): RedactConfig {
  if (value === undefined || value === false) return NO_REDACTION;
  if (value === true) return Object.freeze({ ...NO_REDACTION, secrets: true, pii: true });
  if (value === 'secrets' || value === 'pii') return Object.freeze({ ...NO_REDACTION, [value]: true });
  if (Array.isArray(value)) {
    const flags = { secrets: false, pii: false };
    value.forEach((v, i) => {
      if (v !== 'secrets' && v !== 'pii') throw invalid(`redact[${i}]`, "'secrets' or 'pii'", v);
      flags[v as 'secrets' | 'pii'] = true;
    });
    return Object.freeze({ ...NO_REDACTION, ...flags });
  }
  if (!isPlainObject(value)) throw invalid('redact', "false, true, 'secrets', 'pii', ['secrets','pii'] or { secrets, pii, patterns, replacement, allow }", value);
  for (const key of Object.keys(value)) if (!REDACT_KEYS.has(key)) warnings.push(`Unknown option "redact.${key}" is ignored.`);
  let patterns: RegExp[] = [];
  if (value.patterns !== undefined) {
    if (!Array.isArray(value.patterns) || value.patterns.length > MAX_PATTERNS) throw invalid('redact.patterns', `an array of at most ${MAX_PATTERNS} regular expressions (strings or RegExp)`, value.patterns);
    patterns = value.patterns.map((p, i) => compilePattern(`redact.patterns[${i}]`, p));
  }
  if (value.replacement !== undefined && typeof value.replacement !== 'string') throw invalid('redact.replacement', 'a string such as "[REDACTED:<KIND>]"', value.replacement);
  const allow = normalizeAllow(value.allow);
  return Object.freeze({
    secrets: bool('redact.secrets', value.secrets, false),
    pii: bool('redact.pii', value.pii, false),
    patterns: Object.freeze(patterns),
    replacement: (value.replacement as string | undefined) ?? DEFAULT_REPLACEMENT,
    ...(allow.length > 0 && { allow }),
  });
}

/** `redact.allow`: values (or `@domain`s) that stay visible; see core/redaction/allow-list.ts. */
function normalizeAllow(value: unknown): readonly string[] {
  if (value === undefined) return [];
  const expected = `an array of at most ${MAX_ALLOW_ENTRIES} values or "@domain" entries, each 1–${MAX_ALLOW_ENTRY_CHARS} characters`;
  if (!Array.isArray(value) || value.length > MAX_ALLOW_ENTRIES) throw invalid('redact.allow', expected, value);
  return Object.freeze(value.map((v, i) => {
    if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_ALLOW_ENTRY_CHARS || v.trim() === '@') throw invalid(`redact.allow[${i}]`, `a value or "@domain" of 1–${MAX_ALLOW_ENTRY_CHARS} characters`, v);
    return v.trim();
  }));
}

function compilePattern(option: string, value: unknown): RegExp {
  let source: string;
  let flags = 'g';
  if (value instanceof RegExp) {
    source = value.source;
    flags = [...new Set((value.flags.replace(/[gy]/g, '') + 'g').split(''))].join('');
  } else if (typeof value === 'string' && value.length > 0) {
    source = value;
  } else {
    throw invalid(option, 'a non-empty string or a RegExp', value);
  }
  if (source.length > MAX_PATTERN_LENGTH) throw new KitError('invalid_config', `${option} is longer than ${MAX_PATTERN_LENGTH} characters.`, { details: { option } });
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch {
    throw new KitError('invalid_config', `${option} is not a valid regular expression.`, { details: { option } });
  }
  const verdict = vetPattern(source);
  if (!verdict.safe) {
    const why = verdict.why === 'it is not a valid regular expression' ? 'it uses syntax Kit cannot check for safety (lookbehind, named groups, \\p{…})' : verdict.why;
    throw new KitError('invalid_config', `${option} is refused because ${why}.`, { details: { option } });
  }
  if (re.test('')) throw new KitError('invalid_config', `${option} matches the empty string, so it would mask nothing useful.`, { details: { option } });
  re.lastIndex = 0;
  return re;
}

function normalizeEndpoint(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const expected = 'an absolute http(s) URL such as "https://example.com/kit/v1"';
  if (typeof value !== 'string') throw invalid('endpoint', expected, value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('endpoint', expected, value);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('endpoint', expected, value);
  if (url.username || url.password) throw new KitError('invalid_config', 'endpoint must not contain credentials.', { details: { option: 'endpoint' } });
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function normalizeStrings(value: unknown): Readonly<Record<string, string>> {
  if (value === undefined) return Object.freeze({});
  if (!isPlainObject(value)) throw invalid('strings', 'an object of UI strings, e.g. { placeholder: "Ask…" }', value);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw invalid(`strings.${k}`, 'a string', v);
    out[k] = v;
  }
  return Object.freeze(out);
}

function urlLike(option: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(option, 'a path such as "/pricing" or a same-origin URL', value);
  let url: URL;
  try {
    url = new URL(value, PARSE_BASE);
  } catch {
    throw invalid(option, 'a path such as "/pricing" or a same-origin URL', value);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(option, 'an http(s) path or URL', value);
  return value.trim();
}

function oneOf<T extends string>(option: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw invalid(option, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
}

function bool(option: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  throw invalid(option, 'true or false', value);
}

function positiveInt(option: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) return value;
  throw invalid(option, `a whole number from 1 to ${max}`, value);
}

function nonEmptyString(option: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw invalid(option, 'a non-empty string', value);
}

function callback(option: string, value: unknown): Callback | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'function') return value as Callback;
  throw invalid(option, 'a function', value);
}

/** Describes a received value by type only: config values can hold keys, so they never enter messages. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : `the number ${value}`;
  return `a ${typeof value}`;
}

function invalid(option: string, expected: string, got: unknown): KitError {
  return new KitError('invalid_config', `${option} must be ${expected} (got ${describe(got)}).`, { details: { option } });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
