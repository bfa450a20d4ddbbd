import type { ContextConfig, RedactConfig } from './types.js';

/** Defaults the specification leaves open (CONTRACT §8). */
export const CONTEXT_DEFAULTS = Object.freeze({
  sitemap: '/sitemap.xml',
  maxPages: 25,
  maxCharsPerPage: 20_000,
  maxCorpusChars: 400_000,
  fetchTimeoutMs: 8_000,
  concurrency: 4,
  sameOriginOnly: true,
  credentials: 'omit',
} as const);

/** Hard bounds of the context options: maxPages by the spec, the rest so that one page view stays bounded. */
export const CONTEXT_BOUNDS = Object.freeze({
  maxPages: 100,
  maxCharsPerPage: 1_000_000,
  maxCorpusChars: 5_000_000,
  fetchTimeoutMs: 120_000,
  concurrency: 16,
  urls: 1_000,
} as const);

export const DEFAULT_REFUSAL_MESSAGE = 'I can only answer about this page';
/** Said instead of the default when the assistant reads a whole site (`context` other than `'page'`). */
export const DEFAULT_SITE_REFUSAL_MESSAGE = 'I can only answer about this site';
export const DEFAULT_REPLACEMENT = '[REDACTED:<KIND>]';
/** A custom pattern longer than this is refused: long patterns are where backtracking hides. */
export const MAX_PATTERN_LENGTH = 1_000;
export const MAX_PATTERNS = 50;

export const PAGE_CONTEXT: ContextConfig = Object.freeze({
  scope: 'page',
  urls: Object.freeze([]) as readonly string[],
  sitemap: null,
  maxPages: 1,
  maxCharsPerPage: CONTEXT_DEFAULTS.maxCharsPerPage,
  maxCorpusChars: CONTEXT_DEFAULTS.maxCorpusChars,
  fetchTimeoutMs: CONTEXT_DEFAULTS.fetchTimeoutMs,
  concurrency: CONTEXT_DEFAULTS.concurrency,
  sameOriginOnly: true,
  credentials: 'omit',
});

export const NO_REDACTION: RedactConfig = Object.freeze({
  secrets: false,
  pii: false,
  patterns: Object.freeze([]) as readonly RegExp[],
  replacement: DEFAULT_REPLACEMENT,
});

/** Most entries of `redact.allow` (default 100): an allow list is a handful of published contact details. */
export const MAX_ALLOW_ENTRIES = 100;
/** Longest `redact.allow` entry (default 320 characters: an email address at RFC 3696's limit, with room to spare). */
export const MAX_ALLOW_ENTRY_CHARS = 320;
