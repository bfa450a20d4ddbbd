import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';

/** GET /openapi.json: the document of every route, itself included. */
export function openApiRoutes(document: () => Record<string, unknown>): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This API as an OpenAPI 3.1 document',
      tags: ['Meta'],
      auth: { kind: 'none' },
      responses: { 200: { description: 'The OpenAPI document.', schema: z.looseObject({ openapi: z.string() }) } },
      async handler() {
        return { status: 200, body: document() };
      },
    }),
  ];
}
