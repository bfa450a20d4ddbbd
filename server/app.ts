import Koa from 'koa';
import type { Container } from 'inversify';
import { buildOpenApiDocument } from './http/openapi.js';
import type { Route } from './http/route.js';
import { mountRoutes } from './http/router.js';
import { accessLog } from './middleware/access-log.js';
import { corsMiddleware } from './middleware/cors.js';
import { errorHandler } from './middleware/error-handler.js';
import { inflightLimit } from './middleware/inflight-limit.js';
import { requestId } from './middleware/request-id.js';
import { healthChecks } from './routes/health.js';
import { openApiRoutes } from './routes/openapi.routes.js';
import { resolve, resolveAll } from './tokens.js';

/** Version reported in the OpenAPI document. */
export const API_VERSION = '1.0.0';

/**
 * The Koa application: request id → access log → errors → (behind a proxy) requests in flight per client IP → CORS → health checks → /sdk and /demo files → /v1
 * routes (every TOKENS.Routes binding plus GET /v1/openapi.json) → 404/405. It does not listen; server/main.ts does.
 */
export function createApp(container: Container): Koa {
  const config = resolve(container, 'Config');
  const logger = resolve(container, 'Logger');
  const app = new Koa({ proxy: config.trustProxyHops > 0, maxIpsCount: config.trustProxyHops });
  // Errors are answered by errorHandler; what reaches Koa's own handler is a socket-level failure.
  app.on('error', (err: Error) => logger.warn({ err: { type: err.name, message: err.message } }, 'connection error'));

  const featureRoutes = resolveAll(container, 'Routes').flat();
  let document: Record<string, unknown> = {};
  const routes: Route[] = [...featureRoutes, ...openApiRoutes(() => document)];
  // Built at start: a route whose schemas cannot be documented fails here, not on a request.
  document = buildOpenApiDocument(routes, { title: 'Kit Platform API', version: API_VERSION });

  app.use(requestId());
  app.use(accessLog(logger));
  app.use(errorHandler(logger));
  // Behind a trusted proxy the per-connection cap (http-server.ts) sees only the proxy: cap requests per client.
  if (config.trustProxyHops > 0) app.use(inflightLimit(config.http.maxConnectionsPerIp));
  app.use(corsMiddleware(config.corsOrigins));
  app.use(healthChecks(resolve(container, 'Database')));
  app.use(resolve(container, 'DemoSite').middleware());
  app.use(resolve(container, 'ConsoleSite').middleware());
  for (const middleware of mountRoutes(routes, resolve(container, 'Authenticator'))) app.use(middleware);
  return app;
}
