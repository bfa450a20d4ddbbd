import { z } from 'zod';
import type { Context } from 'koa';
import { assertSameOrigin, requireBrowserSession } from '../auth/browser-auth.js';
import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie.js';
import type { ServerConfig } from '../config.js';
import { defineRoute, type Route } from '../http/route.js';
import { LoginBody, SignupBody } from './auth.routes.js';
import { prefixedId, Timestamp } from '../http/schemas.js';
import { OrganizationView, organizationView, RoleSchema, UserView, userView } from '../http/views.js';
import type { BrowserSessionService } from '../services/browser-session-service.js';
import type { ConsoleAccountService, ConsoleSessionState } from '../services/console-account-service.js';
import { unwrap } from '../services/service-result.js';
import { KitError } from '../../core/errors/index.js';


const ConsoleSessionView = z
  .strictObject({
    csrf_token: z.string().meta({ description: 'Send it as `X-CSRF-Token` on every POST, PATCH, PUT and DELETE made with the cookie.' }),
    expires_at: Timestamp.meta({ description: 'The latest end of the session (it ends sooner after a day without requests).' }),
    user: UserView,
    organization: OrganizationView,
    role: RoleSchema,
    organizations: z.array(z.strictObject({ id: z.string(), name: z.string(), role: RoleSchema })).meta({ description: "The user's organizations, to switch between." }),
  })
  .meta({ id: 'ConsoleSession', description: 'A signed-in browser: who, in which organization, and the CSRF token. The session itself is an HttpOnly cookie.' });

function sessionView(s: ConsoleSessionState): z.infer<typeof ConsoleSessionView> {
  return {
    csrf_token: s.csrfToken,
    expires_at: s.session.expiresAt.toISOString(),
    user: userView(s.user),
    organization: organizationView(s.organization),
    role: s.role,
    organizations: s.organizations.map((o) => ({ ...o })),
  };
}

const COOKIE_NOTE =
  'The session is an `HttpOnly`, `SameSite=Strict` cookie (`kit_console`, or `__Host-kit_console` on https) that scripts cannot read; every member route accepts it in place of a bearer token. Unsafe methods made with the cookie need `X-CSRF-Token`. docs/console.md explains the design.';

/** Browser sessions of the console: cookie sign-in and sign-up, the session's state, organisation switch, sign-out. */
export function sessionRoutes(service: ConsoleAccountService, sessions: BrowserSessionService, config: ServerConfig): Route[] {
  const start = (ctx: Context, token: string): void => setSessionCookie(ctx, token, config.console.sessionMaxSeconds);
  return [
    defineRoute({
      method: 'post',
      path: '/auth/session',
      operationId: 'signInBrowser',
      summary: 'Sign in a browser (cookie session)',
      description: `Like POST /auth/login (same limits, \`organization_id\`, \`invite_token\`), but the credential is a cookie instead of a token in the body. ${COOKIE_NOTE}`,
      tags: ['Accounts'],
      auth: { kind: 'none' },
      body: LoginBody,
      responses: { 201: { description: 'Signed in; the cookie is set.', schema: ConsoleSessionView } },
      errors: ['unauthenticated', 'forbidden', 'not_found', 'rate_limited'],
      async handler({ body, ip, ctx }) {
        assertSameOrigin(ctx, config.console.publicUrl);
        const { token, state } = unwrap(await service.signIn({ email: body.email, password: body.password, organizationId: body.organization_id, inviteToken: body.invite_token }, ip));
        start(ctx, token);
        return { status: 201, body: sessionView(state), headers: { 'Cache-Control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/session/signup',
      operationId: 'signUpBrowser',
      summary: 'Create an account and sign in a browser (cookie session)',
      description: `Like POST /auth/signup, with a cookie session instead of a token. ${COOKIE_NOTE}`,
      tags: ['Accounts'],
      auth: { kind: 'none' },
      body: SignupBody,
      responses: { 201: { description: 'Signed up and signed in; the cookie is set.', schema: ConsoleSessionView } },
      errors: ['conflict', 'forbidden', 'rate_limited'],
      async handler({ body, ip, ctx }) {
        assertSameOrigin(ctx, config.console.publicUrl);
        const { token, state } = unwrap(
          await service.signUp({ email: body.email, password: body.password, name: body.name, organizationName: body.organization_name, inviteToken: body.invite_token }, ip),
        );
        start(ctx, token);
        return { status: 201, body: sessionView(state), headers: { 'Cache-Control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/session',
      operationId: 'getBrowserSession',
      summary: 'The signed-in browser',
      description: `\`401 unauthenticated\` when the cookie is absent or its session ended. ${COOKIE_NOTE}`,
      tags: ['Accounts'],
      auth: { kind: 'none' },
      cookieSession: true,
      responses: { 200: { description: 'The session.', schema: ConsoleSessionView } },
      errors: ['unauthenticated'],
      async handler({ ctx }) {
        const session = await requireBrowserSession(ctx, sessions, config.console.publicUrl);
        const state = await service.state(session);
        if (!state) {
          clearSessionCookie(ctx);
          throw new KitError('unauthenticated', 'This account belongs to no organization any more; sign in again.');
        }
        return { status: 200, body: sessionView(state), headers: { 'Cache-Control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/auth/session',
      operationId: 'switchBrowserOrganization',
      summary: 'Switch the organization of the signed-in browser',
      tags: ['Accounts'],
      auth: { kind: 'none' },
      cookieSession: true,
      body: z.strictObject({ organization_id: prefixedId('org') }),
      responses: { 200: { description: 'The session, now in that organization.', schema: ConsoleSessionView } },
      errors: ['unauthenticated', 'forbidden', 'not_found'],
      async handler({ ctx, body }) {
        const session = await requireBrowserSession(ctx, sessions, config.console.publicUrl);
        return { status: 200, body: sessionView(unwrap(await service.switchOrganization(session, body.organization_id))), headers: { 'Cache-Control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/auth/session',
      operationId: 'signOutBrowser',
      summary: 'Sign out the browser',
      description: 'Ends the session on the server (the cookie stops working everywhere it was copied) and clears the cookie.',
      tags: ['Accounts'],
      auth: { kind: 'none' },
      cookieSession: true,
      responses: { 204: { description: 'Signed out.' } },
      errors: ['unauthenticated', 'forbidden'],
      async handler({ ctx }) {
        const session = await requireBrowserSession(ctx, sessions, config.console.publicUrl);
        await service.signOut(session);
        clearSessionCookie(ctx);
        return { status: 204 };
      },
    }),
  ];
}
