import type { RedactKind } from '../config/types.js';

/** A masked region in the coordinates of the text given to `redact` (for evaluation; never the value). */
export interface RedactionSpan {
  readonly start: number;
  readonly end: number;
  readonly kind: RedactKind;
}

/** What `redact` returns: the masked text, how many regions of each kind were masked, and where. */
export interface RedactionResult {
  readonly text: string;
  readonly counts: Partial<Record<RedactKind, number>>;
  readonly spans: readonly RedactionSpan[];
}

/** A configured redactor; `redact` is synchronous, pure and never throws on any string. */
export interface Redactor {
  redact(text: string): RedactionResult;
}

/** One detector hit before overlaps are merged. `end` is exclusive. */
export interface Detection {
  start: number;
  end: number;
  kind: RedactKind;
}

/** Appends the detections of one family of shapes in `text` to `out`. */
export type Finder = (text: string, out: Detection[]) => void;

/** Finds custom-pattern matches; built by createCustomMatcher (linear-time engine). */
export type CustomMatcher = Finder;

/** Optional parts the redactor cannot carry in the SDK's main bundle (see loadRedactor). */
export interface RedactorDeps {
  /** Phone finder (phone.ts, libphonenumber-js). Without it, `pii` masks no phone numbers. */
  readonly findPhones?: Finder;
  /** Linear-time matcher for `config.patterns` (custom-matcher.ts). Required when patterns are configured. */
  readonly matchCustom?: CustomMatcher;
}
