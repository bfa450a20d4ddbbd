import { Readable } from 'node:stream';
import { z } from 'zod';
import type { OrgExportPort } from '../../core/ports/org-export.port.js';
import { defineRoute, type Route } from '../http/route.js';

async function* ndjson(records: AsyncIterable<object>): AsyncGenerator<string> {
  for await (const record of records) yield `${JSON.stringify(record)}\n`;
}

/** GET /org/export: everything Kit stores about the organisation. */
export function orgDataRoutes(exporter: OrgExportPort): Route[] {
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
  ];
}
