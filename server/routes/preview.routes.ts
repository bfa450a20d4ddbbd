import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { prefixedId, Timestamp } from '../http/schemas.js';
import type { PreviewGrants } from '../services/preview-grants.js';
import { unwrap } from '../services/service-result.js';

/** POST /keys/{id}/preview: a grant for the console's live preview. */
export function previewRoutes(grants: PreviewGrants): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/keys/{id}/preview',
      operationId: 'createPreviewGrant',
      summary: "A grant to preview the assistant on Kit's own pages",
      description:
        "For the console's live preview: a token valid 15 minutes for this publishable key. Sent as `Kit-Preview` with `/config`, `/session` and `/chat` from a page on this server's own origin, it lets that key answer there even when its `allowed_origins` list only the owner's site; from any other origin it changes nothing.",
      tags: ['Keys'],
      auth: { kind: 'jwt', permission: 'keys:read' },
      params: z.object({ id: prefixedId('key') }),
      responses: { 201: { description: 'The grant.', schema: z.strictObject({ token: z.string(), expires_at: Timestamp }).meta({ id: 'PreviewGrant' }) } },
      async handler({ auth, params }) {
        const grant = unwrap(await grants.issue(auth, params.id));
        return { status: 201, body: { token: grant.token, expires_at: grant.expiresAt.toISOString() } };
      },
    }),
  ];
}
