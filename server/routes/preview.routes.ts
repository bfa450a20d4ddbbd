import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { AssistantSettingsInput } from '../http/assistant-schemas.js';
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
      summary: "A grant to preview the assistant on Kit's own pages or on the owner's site",
      description:
        "For the console's live preview: a token valid 15 minutes for this publishable key. Without a body: sent as `Kit-Preview` with `/config`, `/session` and `/chat` from a page on this server's own origin, it lets that key answer there even when its `allowed_origins` list only the owner's site; from any other origin it changes nothing.\n\nWith `url` (a page of the owner's site whose origin the key allows, else `400 invalid_request` naming the allowed origins) and `assistant` (the unsaved settings, validated as the PATCH body of `/assistant`): the answer's `url` is that page with `#kit-preview=<token>`. The SDK on that page sends the token as `Kit-Preview` with `GET /config`, whose `assistant` block then shows the draft — for this key, from that origin only, for 15 minutes. Visitors without the link are unaffected.",
      tags: ['Keys'],
      auth: { kind: 'jwt', permission: 'keys:read' },
      params: z.object({ id: prefixedId('key') }),
      body: z
        .strictObject({
          url: z.string().max(2000).meta({ description: "A page of the owner's site; its origin must be one the key allows." }),
          assistant: AssistantSettingsInput.optional().meta({ description: 'The settings to preview (unsaved); absent = the saved ones.' }),
        })
        .optional()
        .meta({ id: 'PreviewGrantRequest' }),
      bodyRequired: false,
      responses: {
        201: {
          description: 'The grant.',
          schema: z
            .strictObject({
              token: z.string(),
              expires_at: Timestamp,
              url: z.string().optional().meta({ description: 'With a `url` in the request: the page to open, with `#kit-preview=<token>`.' }),
            })
            .meta({ id: 'PreviewGrant' }),
        },
      },
      async handler({ auth, params, body }) {
        if (body) {
          const grant = unwrap(await grants.issueForSite(auth, params.id, body.url, (body.assistant ?? {}) as Record<string, unknown>));
          return { status: 201, body: { token: grant.token, expires_at: grant.expiresAt.toISOString(), url: grant.url } };
        }
        const grant = unwrap(await grants.issue(auth, params.id));
        return { status: 201, body: { token: grant.token, expires_at: grant.expiresAt.toISOString() } };
      },
    }),
  ];
}
