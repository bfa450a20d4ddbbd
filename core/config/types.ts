/** Kit.init options (SPEC §2.1–2.3) as the SDK receives them, before normalisation. */
export type ModeOption = 'auto' | 'local' | 'remote';
export type ModelSize = 'nano' | 'small' | 'balanced' | 'quality';
export type ModelOption = 'auto' | ModelSize;
export type CredentialsOption = 'omit' | 'same-origin';
export type RedactKind = 'secret' | 'email' | 'phone' | 'card' | 'iban' | 'ssn' | 'custom';

export const MODES: readonly ModeOption[] = ['auto', 'local', 'remote'];
export const MODEL_SIZES: readonly ModelSize[] = ['nano', 'small', 'balanced', 'quality'];
export const MODEL_OPTIONS: readonly ModelOption[] = ['auto', ...MODEL_SIZES];

/** The scope of page content an instance answers from (SPEC §2.2, CONTRACT §8), after normalisation. */
export interface ContextConfig {
  /** 'page': the live page only; 'site': pages of a sitemap; 'urls': an explicit list (plus a sitemap if given). */
  readonly scope: 'page' | 'site' | 'urls';
  readonly urls: readonly string[];
  /** Sitemap path or same-origin URL; null when only `urls` are crawled. */
  readonly sitemap: string | null;
  readonly maxPages: number;
  readonly maxCharsPerPage: number;
  readonly maxCorpusChars: number;
  readonly fetchTimeoutMs: number;
  readonly concurrency: number;
  readonly sameOriginOnly: boolean;
  readonly credentials: CredentialsOption;
}

/** What redaction masks (SPEC §2.3), after normalisation. Patterns are compiled, global, and vetted. */
export interface RedactConfig {
  readonly secrets: boolean;
  readonly pii: boolean;
  readonly patterns: readonly RegExp[];
  /** Template of the substitute text; `<KIND>` becomes the upper-case kind (e.g. `[REDACTED:EMAIL]`). */
  readonly replacement: string;
  /** Detected values that stay visible: exact values, or `@domain` for every address there (core/redaction/allow-list.ts). */
  readonly allow?: readonly string[];
}

export type Callback = (payload: unknown) => void;

/** The normalised configuration every part of the SDK reads. Invariants are documented on normalizeConfig. */
export interface KitConfig {
  readonly apiKey: string;
  readonly mode: ModeOption;
  readonly model: ModelOption;
  readonly context: ContextConfig;
  readonly redact: RedactConfig;
  readonly gpuBenchmark: boolean;
  readonly groundingMinMatches: number;
  readonly grounding: boolean;
  readonly autoOpen: boolean;
  readonly refusalMessage: string;
  readonly onReady: Callback | null;
  readonly onError: Callback | null;
  readonly onMessage: Callback | null;
  /** Base URL of the Platform API or of a customer proxy (Mode B), without a trailing slash; null = the service. */
  readonly endpoint: string | null;
  /** Overrides of the widget's UI strings (Kit extension of the spec, for localisation). */
  readonly strings: Readonly<Record<string, string>>;
}
