import { Readable } from 'node:stream';
import { z } from 'zod';
import type { OrgExportPort } from '../../core/ports/org-export.port.js';
import { defineRoute, type Route } from '../http/route.js';
import type { OrgDeletionService } from '../services/org-deletion-service.js';
import { unwrap } from '../services/service-result.js';

async function* ndjson(records: AsyncIterable<object>): AsyncGenerator<string> {
  for await (const record of records) yield `${JSON.stringify(record)}\n`;
}

/** GET /org/export (everything Kit stores about the organisation) and DELETE /org (all of it, gone). */
export function orgDataRoutes(exporter: OrgExportPort, deletion: OrgDeletionService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/org/export',
      operationId: 'exportOrganization',
      summary: "Download the organization's data",
      description:
        'Newline-delimited JSON, one record per line, streamed: `organization`, `member` (email, name, role), `invitation`, `key` (no hashes; publishable values), `assistant_settings`, `question_logging`, `usage_day`, `question_count`, `question` (as stored, masked) and `vote`. Never password hashes, key hashes or invitation tokens. Owners and admins.',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:export' },
      responses: { 200: { description: 'NDJSON.', contentType: 'application/x-ndjson', schema: z.string() } },
      async handler({ auth, ctx }) {
        ctx.status = 200;
        ctx.type = 'application/x-ndjson; charset=utf-8';
        ctx.set('Content-Disposition', `attachment; filename="kit-${auth.orgId}.ndjson"`);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = Readable.from(ndjson(exporter.records(auth.orgId)));
        return undefined;
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/org',
      operationId: 'deleteOrganization',
      summary: 'Delete the organization and everything in it',
      description:
        "Owners only, confirmed with the organization's exact current name. Deletes, in one transaction: the organization, its memberships and invitations, every key (they stop working at once on this replica, within KIT_KEY_CACHE_TTL_MS on others), usage rows and reports, quota meters, assistant and question-logging settings, the question log, daily counts and feedback — and the accounts of members who belong to no other organization. A Stripe customer is deleted first, which cancels its subscription at once (no further invoices; no refund of the running period); if Stripe fails, nothing is deleted (`billing_unavailable`, retry). Download GET /org/export first: this cannot be undone.",
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:delete' },
      body: z
        .strictObject({ confirm_name: z.string().max(200, 'must be at most 200 characters').meta({ description: "The organization's current name, exactly (GET /org `name`)." }) })
        .meta({ id: 'OrganizationDeletion' }),
      responses: { 204: { description: 'Deleted.' } },
      errors: ['conflict', 'billing_unavailable'],
      async handler({ auth, body }) {
        unwrap(await deletion.delete(auth, body.confirm_name));
        return { status: 204 };
      },
    }),
  ];
}
