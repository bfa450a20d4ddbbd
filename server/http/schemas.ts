import { z } from 'zod';
import { ERROR_CODES, type ServerErrorCode } from '../../core/errors/index.js';

const SERVER_CODES = Object.keys(ERROR_CODES).filter((c) => ERROR_CODES[c as keyof typeof ERROR_CODES].status !== null) as [ServerErrorCode, ...ServerErrorCode[]];

/** Longest URL a request may carry (a page, a source, a redirect). */
export const MAX_URL_CHARS = 2_048;

/** Whether `v` parses as an http(s) URL ({@link HttpUrl}'s rule, for hand checks too). */
export const parsesAsHttpUrl = (v: string): boolean => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol);

/** An http(s) URL of at most {@link MAX_URL_CHARS} characters. */
export const HttpUrl = z
  .string()
  .max(MAX_URL_CHARS, `must be at most ${MAX_URL_CHARS} characters`)
  .refine(parsesAsHttpUrl, 'must be an http(s) URL');

/** The rule of a conversation id the SDK sends. */
export const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A conversation id the SDK sends (questions are grouped and deleted by it). */
export const ConversationId = z.string().regex(CONVERSATION_ID, 'must be 1-64 letters, digits, _ or -');

/** The one error body of CONTRACT §5. */
export const ErrorBody = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(SERVER_CODES),
      message: z.string(),
      request_id: z.string().regex(/^req_[0-9A-Za-z]+$/),
      details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().meta({ description: 'Facts about the refusal, where the route documents them: `409 conflict` of `POST /keys` carries `{ max_keys, active_keys }`.' }),
    }),
  })
  .meta({ id: 'Error', description: 'Every error response; the Request-Id header carries the same request_id.' });

/** An ISO 8601 UTC timestamp as the API writes it. */
export const Timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 UTC timestamp, e.g. 2026-01-31T12:00:00.000Z' });

// Control characters (C0, DEL, C1) and bidi overrides would corrupt logs or spoof names in a dashboard;
// NUL cannot even be stored in PostgreSQL text.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// Lone surrogates (from "\ud800" escapes in JSON) are not text; PostgreSQL would store U+FFFD instead.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Human text (a name): trimmed, NFC, 1..max characters, well-formed Unicode without control characters. */
export function humanText(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !LONE_SURROGATE.test(s) && !UNPRINTABLE.test(s), 'must be printable text without control characters')
    .transform((s) => s.normalize('NFC'));
}

/** An email address, compared and stored lower-cased. */
export const Email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be an email address'))
  .transform((s) => s.toLowerCase())
  .meta({ format: 'email' });

/** A password: 8..1024 characters (Argon2id hashes any length; the cap bounds the work per request). */
export const Password = z.string().min(8, 'must be at least 8 characters').max(1024, 'must be at most 1024 characters');

/** An id with its kind prefix (`key_…`, `usr_…`, `org_…`). */
export function prefixedId(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), `must be an id starting with ${prefix}_`);
}

/** `limit` and `starting_after` of every list (CONTRACT §3). */
export function pageQuery(cursorPrefix: string) {
  return z.object({
    limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
    starting_after: prefixedId(cursorPrefix).optional(),
  });
}

/** A list response of CONTRACT §3. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), has_more: z.boolean() });
}
