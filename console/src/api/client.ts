/**
 * The console's one API client: openapi-fetch typed by schema.d.ts, which openapi-typescript generates from the
 * server's OpenAPI document (scripts/console/api-types.ts). Same origin, the session cookie rides along; unsafe
 * methods carry the session's CSRF token. Contract errors become ApiError with the server's own message.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type Schemas = components['schemas'];

let csrfToken: string | null = null;
let onSessionEnded: ((message: string) => void) | null = null;

/** Remembers the session's CSRF token (from sign-in or GET /auth/session). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a request answers 401 while signed in: the session ended elsewhere (sign-out, reset, expiry). */
export function onUnauthenticated(handler: ((message: string) => void) | null): void {
  onSessionEnded = handler;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (csrfToken && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: '/v1', credentials: 'same-origin' });
api.use(csrf);

/** A refusal of the API, in the contract's shape (CONTRACT §5). `field` is the field a validation message names. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly field: string | null;
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly requestId: string | null,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    // Validation messages read `field: what is wrong` (server/http/router.ts describeIssue).
    const match = code === 'invalid_request' ? /^([a-z_][a-z0-9_.]*): /i.exec(message) : null;
    this.field = match ? match[1]! : null;
  }
}

type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** The body of a successful call, or throws ApiError (network failures too, as `network_error`). */
export async function call<T>(request: Promise<Outcome<T>>, options: { quiet401?: boolean } = {}): Promise<T> {
  let outcome: Outcome<T>;
  try {
    outcome = await request;
  } catch {
    throw new ApiError('network_error', 'The Kit server could not be reached. Check your connection and try again.', 0, null);
  }
  const { response } = outcome;
  if (response.ok) return outcome.data as T;
  const body = outcome.error as { error?: { code?: string; message?: string; request_id?: string } } | undefined;
  const code = body?.error?.code ?? 'internal_error';
  const message = body?.error?.message ?? `The server answered ${response.status}.`;
  const retry = Number(response.headers.get('retry-after'));
  const error = new ApiError(code, message, response.status, body?.error?.request_id ?? response.headers.get('request-id'), Number.isFinite(retry) && retry > 0 ? retry : null);
  if (response.status === 401 && !options.quiet401 && onSessionEnded) onSessionEnded(message);
  throw error;
}

/** The message to show for any failure. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.retryAfter ? `${err.message} (retry in ${err.retryAfter} s)` : err.message;
  return err instanceof Error ? err.message : String(err);
}
