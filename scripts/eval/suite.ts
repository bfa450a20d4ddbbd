/** One evaluation suite of `npm run eval` (CONTRACT §9). */
export interface EvalSuite<C = unknown> {
  /** Checks one parsed JSONL line and returns the typed case, or throws an Error saying what is wrong. */
  parseCase(value: unknown): C;
  /** Runs every case and returns the metrics object printed as the last line. */
  run(cases: readonly C[], context: { baseDir: string; log: (line: string) => void }): Promise<Record<string, unknown>>;
}

/** Error for a suite's parseCase: the CLI prefixes it with the file and line. */
export class CaseError extends Error {}

export function requireString(value: Record<string, unknown>, field: string): string {
  const v = value[field];
  if (typeof v !== 'string') throw new CaseError(`"${field}" must be a string`);
  return v;
}

export function requireObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CaseError('a case must be a JSON object');
  return value as Record<string, unknown>;
}
