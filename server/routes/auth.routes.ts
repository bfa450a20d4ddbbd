import { z } from 'zod';
import type { AccountService, Session } from '../services/account-service.js';
import { unwrap } from '../services/service-result.js';
import { defineRoute, type Route } from '../http/route.js';
import { Email, humanText, Password, prefixedId, Timestamp } from '../http/schemas.js';
import { OrganizationView, organizationView, RoleSchema, UserView, userView } from '../http/views.js';

const InviteToken = z.string().regex(/^kit_inv_[0-9A-Za-z]{40}$/, 'must be an invitation token (kit_inv_…)');

/** The body of a sign-up, for a token (`POST /auth/signup`) or a cookie session (`POST /auth/session/signup`). */
export const SignupBody = z.strictObject({
  email: Email,
  password: Password,
  name: humanText(100).optional(),
  organization_name: humanText(100).optional(),
  invite_token: InviteToken.optional(),
});

/** The body of a sign-in, for a token (`POST /auth/login`) or a cookie session (`POST /auth/session`). */
export const LoginBody = z.strictObject({
  email: Email,
  password: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  organization_id: prefixedId('org').optional(),
  invite_token: InviteToken.optional(),
});

const SessionView = z
  .strictObject({ token: z.string(), expires_at: Timestamp, user: UserView, organization: OrganizationView, role: RoleSchema })
  .meta({ id: 'Session', description: 'A dashboard token (JWT, 1 hour) and who it is for.' });

function sessionView(s: Session): z.infer<typeof SessionView> {
  return { token: s.token, expires_at: s.expiresAt.toISOString(), user: userView(s.user), organization: organizationView(s.organization), role: s.member.role };
}

/** POST /auth/signup and /auth/login. */
export function authRoutes(accounts: AccountService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/signup',
      operationId: 'signup',
      summary: 'Create a developer account',
      description: 'Creates the user, an organization and the owner membership; with `invite_token`, joins the inviting organization instead.',
      tags: ['Accounts'],
      auth: { kind: 'none' },
      body: SignupBody,
      responses: { 201: { description: 'Signed up and signed in.', schema: SessionView } },
      errors: ['conflict', 'rate_limited'],
      async handler({ body, ip }) {
        const session = unwrap(
          await accounts.signup({ email: body.email, password: body.password, name: body.name, organizationName: body.organization_name, inviteToken: body.invite_token }, ip),
        );
        return { status: 201, body: sessionView(session) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/login',
      operationId: 'login',
      summary: 'Sign in',
      description:
        'Returns a dashboard token for one organization (`organization_id`, default the first joined). With `invite_token`, an existing user accepts an invitation and signs in to that organization. Failed logins are rate-limited per email and per IP.',
      tags: ['Accounts'],
      auth: { kind: 'none' },
      body: LoginBody,
      responses: { 200: { description: 'Signed in.', schema: SessionView } },
      errors: ['unauthenticated', 'forbidden', 'not_found', 'rate_limited'],
      async handler({ body, ip }) {
        const session = unwrap(await accounts.login({ email: body.email, password: body.password, organizationId: body.organization_id, inviteToken: body.invite_token }, ip));
        return { status: 200, body: sessionView(session) };
      },
    }),
  ];
}
