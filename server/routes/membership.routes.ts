import { z } from 'zod';
import type { ConsoleAccountService } from '../services/console-account-service.js';
import { unwrap } from '../services/service-result.js';
import { defineRoute, type Route } from '../http/route.js';
import { listOf, prefixedId, Timestamp } from '../http/schemas.js';
import { RoleSchema } from '../http/views.js';

const InvitationView = z
  .strictObject({ id: z.string(), email: z.string(), role: RoleSchema, invited_by: z.string().nullable(), expires_at: Timestamp, created_at: Timestamp })
  .meta({ id: 'Invitation', description: 'A pending invitation (its token was shown once to the inviter and emailed to the invitee).' });

/** Pending invitations and leaving an organisation (issue 14). */
export function membershipRoutes(service: ConsoleAccountService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/org/invitations',
      operationId: 'listInvitations',
      summary: 'Pending invitations',
      description: 'Invitations not yet accepted and not expired, newest first (at most 200). Tokens are never listed.',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:read' },
      responses: { 200: { description: 'The pending invitations.', schema: listOf(InvitationView) } },
      async handler({ auth }) {
        const list = await service.listInvitations(auth);
        return {
          status: 200,
          body: {
            data: list.map((i) => ({ id: i.id, email: i.email, role: i.role, invited_by: i.invitedBy, expires_at: i.expiresAt.toISOString(), created_at: i.createdAt.toISOString() })),
            has_more: false,
          },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/org/invitations/{id}',
      operationId: 'revokeInvitation',
      summary: 'Revoke a pending invitation',
      description: 'Its link stops working at once.',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:manage' },
      params: z.object({ id: prefixedId('inv') }),
      responses: { 204: { description: 'Revoked.' } },
      async handler({ auth, params }) {
        unwrap(await service.revokeInvitation(auth, params.id));
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/org/leave',
      operationId: 'leaveOrganization',
      summary: 'Leave the organization',
      description:
        'Any role may leave. The last owner cannot (`409 conflict`): an organization always keeps an owner, so make someone else owner first. A console session moves to the next organization of the user.',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:read' },
      responses: { 204: { description: 'Left.' } },
      errors: ['conflict'],
      async handler({ auth }) {
        unwrap(await service.leave(auth));
        return { status: 204 };
      },
    }),
  ];
}
