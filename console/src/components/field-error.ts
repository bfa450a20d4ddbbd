import { ApiError } from '../api/client.js';

/**
 * The error message of a field when the API named it: `password: must be…` gives `must be…` for `password`;
 * an item of a list is named in words, counted from 1 (`allowed_origins.1: …` gives `Item 2: …`).
 */
export function fieldError(error: unknown, ...fields: string[]): string | null {
  return fieldMessage(error, fields, 'Item');
}

/** fieldError for a list field edited one item per line: `allowed_origins.1: …` gives `Line 2: …`. */
export function lineError(error: unknown, field: string): string | null {
  return fieldMessage(error, [field], 'Line');
}

function fieldMessage(error: unknown, fields: readonly string[], itemNoun: string): string | null {
  if (!(error instanceof ApiError) || !error.field) return null;
  const field = error.field;
  if (!fields.some((f) => field === f || field.startsWith(`${f}.`))) return null;
  const message = error.message.startsWith(`${field}: `) ? error.message.slice(field.length + 2) : error.message;
  // An item of a list field ("starter_questions.0"): say which one, in words.
  const item = fields.includes(field) ? null : /\.(\d+)$/.exec(field);
  return item ? `${itemNoun} ${Number(item[1]) + 1}: ${message}` : message;
}
