import type { Context } from 'koa';
import type { z } from 'zod';
import type { ServerErrorCode } from '../../core/errors/index.js';
import type { AuthFor, AuthRequirement } from '../auth/auth-context.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A documented response of a route. */
export interface ResponseSpec {
  readonly description: string;
  /** JSON body schema; absent for an empty body (204). */
  readonly schema?: z.ZodType;
  /** Default 'application/json'. */
  readonly contentType?: string;
  /** More representations of the same status (e.g. `text/event-stream` beside JSON), by content type. */
  readonly alternatives?: Readonly<Record<string, z.ZodType>>;
}

/** What a handler sends; a handler that streams sets `ctx` itself and returns undefined. */
export interface RouteResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Default largest JSON body (bytes) a route accepts; 64 KiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The validated request a handler receives. */
export interface RouteRequest<A extends AuthRequirement, P, Q, B> {
  readonly params: Out<P>;
  readonly query: Out<Q>;
  readonly body: Out<B>;
  readonly auth: AuthFor<A>;
  readonly requestId: string;
  /** The client's address (X-Forwarded-For honoured only with KIT_TRUST_PROXY). */
  readonly ip: string;
  readonly ctx: Context;
}

/**
 * One API operation: its path under /v1 (OpenAPI style, `/keys/{id}`), who may call it, its schemas and
 * handler. The same definition validates requests and generates GET /v1/openapi.json.
 */
export interface RouteSpec<A extends AuthRequirement = AuthRequirement, P = unknown, Q = unknown, B = unknown> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly auth: A;
  /**
   * The handler reads the console's session cookie itself (`auth` stays `none` in the pipeline): the OpenAPI document
   * declares the `consoleSession` scheme for it.
   */
  readonly cookieSession?: boolean;
  /** Path parameters; a value that fails them answers `not_found` (no such record can exist). */
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /**
   * A hand check of the body for a hot route: returns the body exactly as `body` would parse it, or undefined to let
   * the schema decide (and word the error). It must accept nothing the schema refuses (tested per route).
   */
  readonly fastBody?: (raw: unknown) => Out<B> | undefined;
  /** When false, an absent body is validated as `undefined` (e.g. rotate's optional options); default true. */
  readonly bodyRequired?: boolean;
  /**
   * Media types the JSON body may be sent as; default `application/json` only. `text/plain` lets `navigator.sendBeacon`
   * post JSON without a CORS preflight (the question beacon).
   */
  readonly bodyMediaTypes?: readonly string[];
  /** Largest body in bytes, or a function of the caller (e.g. the key's plan); default 64 KiB. */
  readonly bodyLimitBytes?: number | ((auth: AuthFor<A>) => number);
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  /** Error codes this route may answer besides the ones implied by its auth, params, query and body. */
  readonly errors?: readonly ServerErrorCode[];
  handler(request: RouteRequest<A, P, Q, B>): Promise<RouteResult | undefined>;
}

/** A route with its types erased, as the registry holds it. */
export type Route = RouteSpec<AuthRequirement, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;

/** Declares a route with its handler typed from its schemas and auth requirement. */
export function defineRoute<
  A extends AuthRequirement,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<A, P, Q, B>): Route {
  return spec as unknown as Route;
}
