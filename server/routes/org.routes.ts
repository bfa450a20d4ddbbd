import { z } from 'zod';
import type { Context } from 'koa';
import type { MemberAuth } from '../auth/auth-context.js';
import type { IssuedInvitation, OrgService } from '../services/org-service.js';
import { unwrap } from '../services/service-result.js';
import { defineRoute, type Route } from '../http/route.js';
import { Email, humanText, listOf, pageQuery, prefixedId, Timestamp } from '../http/schemas.js';
import { MemberView, memberView, OrganizationView, organizationView, RoleSchema } from '../http/views.js';

const UserId = z.object({ user_id: prefixedId('usr') });

/** Emails an invitation just made; true when an email was queued (issue 14). */
export type InvitationMailer = (auth: MemberAuth, invitation: IssuedInvitation, ctx: Context) => boolean;

/** GET/PATCH /org and the member routes under it. */
export function orgRoutes(orgs: OrgService, mailInvitation: InvitationMailer = () => false): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/org',
      operationId: 'getOrganization',
      summary: 'The organization of the token',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:read' },
      responses: { 200: { description: 'The organization.', schema: OrganizationView } },
      async handler({ auth }) {
        return { status: 200, body: organizationView(unwrap(await orgs.get(auth))) };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/org',
      operationId: 'updateOrganization',
      summary: 'Rename the organization',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:manage' },
      body: z.strictObject({ name: humanText(100) }),
      responses: { 200: { description: 'The organization.', schema: OrganizationView } },
      async handler({ auth, body }) {
        return { status: 200, body: organizationView(unwrap(await orgs.rename(auth, body.name))) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/org/members',
      operationId: 'listMembers',
      summary: 'List members',
      description: 'In the order they joined.',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:read' },
      query: pageQuery('usr'),
      responses: { 200: { description: 'A page of members.', schema: listOf(MemberView) } },
      async handler({ auth, query }) {
        const page = unwrap(await orgs.listMembers(auth, { limit: query.limit, startingAfter: query.starting_after }));
        return { status: 200, body: { data: page.data.map(memberView), has_more: page.hasMore } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/org/members',
      operationId: 'inviteMember',
      summary: 'Invite a member',
      description:
        'Creates an invitation (replacing any pending one for the same email) and emails the invitee a link to `/console/accept-invite` (`emailed: true`; false when the server cannot build a link: set `KIT_PUBLIC_URL`). The `token` is still returned once, as before: the invitee passes it as `invite_token` to POST /auth/signup (new account) or POST /auth/login (existing account). Only owners may invite owners.',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:manage' },
      body: z.strictObject({ email: Email, role: RoleSchema }),
      responses: {
        201: {
          description: 'The invitation, with its token (shown once).',
          schema: z.strictObject({
            invitation: z.strictObject({ id: z.string(), email: z.string(), role: RoleSchema, token: z.string(), expires_at: Timestamp }),
            emailed: z.boolean().meta({ description: 'True when an email with the link was queued for the invitee.' }),
          }),
        },
      },
      errors: ['conflict'],
      async handler({ auth, body, ctx }) {
        const inv = unwrap(await orgs.invite(auth, body.email, body.role));
        const emailed = mailInvitation(auth, inv, ctx);
        return { status: 201, body: { invitation: { id: inv.id, email: inv.email, role: inv.role, token: inv.token, expires_at: inv.expiresAt.toISOString() }, emailed } };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/org/members/{user_id}',
      operationId: 'updateMember',
      summary: "Change a member's role",
      description: 'Admins may not change owners or grant `owner`; the last owner cannot be demoted (`conflict`).',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:manage' },
      params: UserId,
      body: z.strictObject({ role: RoleSchema }),
      responses: { 200: { description: 'The member.', schema: MemberView } },
      errors: ['conflict'],
      async handler({ auth, params, body }) {
        return { status: 200, body: memberView(unwrap(await orgs.changeRole(auth, params.user_id, body.role))) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/org/members/{user_id}',
      operationId: 'removeMember',
      summary: 'Remove a member',
      description: 'Access ends at once. Admins may not remove owners; the last owner cannot be removed (`conflict`).',
      tags: ['Organization'],
      auth: { kind: 'jwt', permission: 'org:manage' },
      params: UserId,
      responses: { 204: { description: 'Removed.' } },
      errors: ['conflict'],
      async handler({ auth, params }) {
        unwrap(await orgs.removeMember(auth, params.user_id));
        return { status: 204 };
      },
    }),
  ];
}
