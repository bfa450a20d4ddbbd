/**
 * What the user sets in the extension (popup: how the assistant runs; options: where it connects) and how that
 * becomes Kit.init options. Pure: no `browser.*`, so it is tested in Node.
 */
import { MAX_ALLOW_ENTRIES, MAX_ALLOW_ENTRY_CHARS } from '../core/config/defaults.js';
import { MODEL_OPTIONS, MODES, type ModelOption, type ModeOption } from '../core/config/types.js';
import { fail, ok, type Result } from '../core/errors/index.js';
import { parseKey } from '../core/keys/key-format.js';

/** Storage keys (extension storage only: never a page's localStorage). */
export const STORAGE_KEYS = Object.freeze({
  /** AssistantSettings, storage.local. */
  settings: 'kit.settings',
  /** ConnectionOptions, storage.local. */
  connection: 'kit.connection',
  /** Ids of tabs the assistant is switched on in, storage.session (forgotten when the browser closes). */
  tabs: 'kit.tabs',
  /** SiteAllowLists, storage.local: per site, detected values redaction keeps visible. */
  allow: 'kit.allow',
});

/**
 * Per site (host name), the values redaction keeps visible there — the site's own published contact details, such
 * as `support@shop.example.com`, `@shop.example.com` (every address at that domain) or its hotline. Redaction
 * cannot tell a published support address from a person's, so it masks both by default; the allow list is where a
 * site owner says which ones are public (docs/extension.md, "Redaction").
 */
export type SiteAllowLists = Readonly<Record<string, readonly string[]>>;

/** The key of a page in SiteAllowLists: its host name (all ports and paths of a site share one list). */
export function siteOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const u = new URL(url);
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : null;
}

/** Reads stored allow lists, keeping well-formed entries only (storage may hold an older or damaged shape). */
export function parseAllowLists(raw: unknown): SiteAllowLists {
  const out: Record<string, readonly string[]> = {};
  if (typeof raw !== 'object' || raw === null) return out;
  for (const [site, list] of Object.entries(raw as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    const parsed = parseAllowText(list.filter((v) => typeof v === 'string').join('\n'));
    if (parsed.ok && parsed.value.length > 0) out[site] = parsed.value;
  }
  return out;
}

/** The popup's text box: one value or `@domain` per line; blank lines ignored, duplicates dropped. */
export function parseAllowText(text: string): Result<string[], 'invalid_allow_list'> {
  const entries = [...new Set(text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== ''))];
  const bad = entries.find((e) => e === '@' || e.length > MAX_ALLOW_ENTRY_CHARS);
  if (bad !== undefined) return fail('invalid_allow_list', bad === '@' ? 'Write a domain after @ (e.g. @shop.example.com).' : `An entry is longer than ${MAX_ALLOW_ENTRY_CHARS} characters.`);
  if (entries.length > MAX_ALLOW_ENTRIES) return fail('invalid_allow_list', `At most ${MAX_ALLOW_ENTRIES} entries per site.`);
  return ok(entries);
}

export type ContextChoice = 'page' | 'site';
/** 'secrets': keys and tokens; 'all': secrets and personal data (emails, phones, cards, IBANs, SSNs). */
export type RedactChoice = 'off' | 'secrets' | 'all';

/** The popup's choices. */
export interface AssistantSettings {
  readonly mode: ModeOption;
  readonly model: ModelOption;
  readonly context: ContextChoice;
  readonly redact: RedactChoice;
}

/** Defaults: what a website gets from Kit.init with no options, except redaction, on for a preview tool. */
export const DEFAULT_SETTINGS: AssistantSettings = Object.freeze({ mode: 'auto', model: 'auto', context: 'page', redact: 'all' });

export const CONTEXT_CHOICES: readonly ContextChoice[] = ['page', 'site'];
export const REDACT_CHOICES: readonly RedactChoice[] = ['off', 'secrets', 'all'];

/** The options page's fields. */
export interface ConnectionOptions {
  /** Platform API base URL ending in /v1, without a trailing slash (e.g. http://localhost:8787/v1). */
  readonly endpoint: string;
  /** A publishable key (kit_pub_…). */
  readonly apiKey: string;
  /** Where self-hosted WebLLM weights live (docs/local-inference.md); '' = WebLLM's default hosts. */
  readonly modelBaseUrl: string;
}

/** Reads stored settings, keeping each valid field and defaulting the rest (storage may hold an older shape). */
export function parseSettings(raw: unknown): AssistantSettings {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);
  return {
    mode: pick(r.mode, MODES, DEFAULT_SETTINGS.mode),
    model: pick(r.model, MODEL_OPTIONS, DEFAULT_SETTINGS.model),
    context: pick(r.context, CONTEXT_CHOICES, DEFAULT_SETTINGS.context),
    redact: pick(r.redact, REDACT_CHOICES, DEFAULT_SETTINGS.redact),
  };
}

export type ConnectionProblem = 'invalid_endpoint' | 'invalid_api_key' | 'invalid_model_base_url';

/** Every problem of the options page's input, one reason per field, so the page shows them all at once. */
export type ConnectionCheck = { ok: true; value: ConnectionOptions } | { ok: false; problems: Partial<Record<ConnectionProblem, string>> };

/** Checks the options page's input field by field; each reason is shown next to its field. */
export function checkConnection(input: { endpoint?: unknown; apiKey?: unknown; modelBaseUrl?: unknown }): ConnectionCheck {
  const problems: Partial<Record<ConnectionProblem, string>> = {};
  const endpoint = httpUrl(input.endpoint);
  if (!endpoint || endpoint.search || endpoint.hash) problems.invalid_endpoint = 'Enter the Platform API base URL, e.g. http://localhost:8787/v1.';
  const key = parseKey(typeof input.apiKey === 'string' ? input.apiKey.trim() : input.apiKey);
  if (!key.ok) problems.invalid_api_key = key.problem === 'missing' ? 'Enter a publishable key (kit_pub_…).' : key.problem === 'checksum' ? 'This key\'s checksum does not match: copy it again.' : 'This is not a Kit key (kit_pub_…).';
  else if (key.key.kind !== 'publishable') problems.invalid_api_key = 'This is a secret key (kit_sec_…): use a publishable key (kit_pub_…). Secret keys never belong in a browser.';
  let modelBaseUrl = '';
  if (typeof input.modelBaseUrl === 'string' && input.modelBaseUrl.trim() !== '') {
    const url = httpUrl(input.modelBaseUrl);
    if (!url) problems.invalid_model_base_url = 'Enter an absolute http(s) URL, or leave it empty.';
    else modelBaseUrl = url.href;
  }
  if (Object.keys(problems).length > 0 || !endpoint) return { ok: false, problems };
  return { ok: true, value: { endpoint: endpoint.href.replace(/\/+$/, ''), apiKey: (input.apiKey as string).trim(), modelBaseUrl } };
}

/** checkConnection as a Result: the first problem (endpoint, then key, then model URL) when there is one. */
export function parseConnection(input: { endpoint?: unknown; apiKey?: unknown; modelBaseUrl?: unknown }): Result<ConnectionOptions, ConnectionProblem> {
  const checked = checkConnection(input);
  if (checked.ok) return ok(checked.value);
  const code = (['invalid_endpoint', 'invalid_api_key', 'invalid_model_base_url'] as const).find((c) => checked.problems[c] !== undefined)!;
  return fail(code, checked.problems[code]!);
}

/** Reads stored connection options; null when absent or no longer valid. */
export function storedConnection(raw: unknown): ConnectionOptions | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const parsed = parseConnection(raw as Record<string, unknown>);
  return parsed.ok ? parsed.value : null;
}

/**
 * The Kit.init options for these choices (callbacks and host options are added by the content script). `allow` is
 * the previewed site's allow list: values redaction keeps visible there.
 */
export function kitInitOptions(settings: AssistantSettings, connection: ConnectionOptions, allow: readonly string[] = []): Record<string, unknown> {
  const redact = settings.redact === 'off'
    ? false
    : { secrets: true, pii: settings.redact === 'all', ...(allow.length > 0 && { allow: [...allow] }) };
  return {
    apiKey: connection.apiKey,
    endpoint: connection.endpoint,
    mode: settings.mode,
    model: settings.model,
    context: settings.context,
    redact,
  };
}

/**
 * True when `url` is the endpoint itself or lies under it (same origin, path below the endpoint's path). The
 * background forwards nothing else.
 */
export function isUnderEndpoint(endpoint: string, url: string): boolean {
  if (!URL.canParse(url) || !URL.canParse(endpoint)) return false;
  const target = new URL(url);
  const base = new URL(endpoint);
  if (target.origin !== base.origin || target.username || target.password) return false;
  const prefix = base.pathname.replace(/\/+$/, '');
  return target.pathname === prefix || target.pathname.startsWith(`${prefix}/`);
}

/** The host-permission match pattern for a URL's host (all ports: match patterns cannot name one in Firefox). */
export function hostPermissionPattern(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}/*`;
}

/** True when a URL's host is covered by one of the manifest's host-permission patterns (scheme://host/*). */
export function coveredByPatterns(patterns: readonly string[], url: string): boolean {
  return patterns.includes(hostPermissionPattern(url)) || patterns.includes('<all_urls>');
}

function httpUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || !URL.canParse(value.trim())) return null;
  const url = new URL(value.trim());
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}
