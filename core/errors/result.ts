/**
 * Expected outcomes are values, not throws (STYLE.md, "Errors"): "not grounded", "plan forbids local",
 * "crawl limit reached" come back as `{ ok: false, code, reason }`.
 */
export type Ok<T> = { readonly ok: true; readonly value: T };
export type Fail<C extends string = string> = { readonly ok: false; readonly code: C; readonly reason: string };
export type Result<T, C extends string = string> = Ok<T> | Fail<C>;

/** A successful outcome. */
export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

/** An expected failure with a code and a human-readable reason. */
export function fail<C extends string>(code: C, reason: string): Fail<C> {
  return { ok: false, code, reason };
}
