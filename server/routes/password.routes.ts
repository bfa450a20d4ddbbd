import { z } from 'zod';
import { linkBase } from '../auth/browser-auth.js';
import type { ServerConfig } from '../config.js';
import { defineRoute, type Route } from '../http/route.js';
import { Email, Password } from '../http/schemas.js';
import type { ConsoleAccountService } from '../services/console-account-service.js';
import { unwrap } from '../services/service-result.js';

const ResetToken = z.string().regex(/^kit_rst_[0-9A-Za-z]{40}$/, 'must be a reset token (kit_rst_…) from the emailed link');

/** Password reset by an emailed link. */
export function passwordRoutes(service: ConsoleAccountService, config: ServerConfig): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/password-reset',
      operationId: 'requestPasswordReset',
      summary: 'Email a password-reset link',
      description:
        'Answers 202 whether or not the address has an account (the answer and its timing tell nothing). When it has one, an email with a link to `/console/reset-password#token=kit_rst_…` is sent, valid `KIT_PASSWORD_RESET_TTL_SECONDS` (1 hour) and once. At most `KIT_PASSWORD_RESETS_PER_IP_PER_HOUR` requests per client IP, and 5 emails per address an hour.',
      tags: ['Accounts'],
      auth: { kind: 'none' },
      body: z.strictObject({ email: Email }),
      responses: { 202: { description: 'Accepted.', schema: z.strictObject({ accepted: z.literal(true) }) } },
      errors: ['rate_limited'],
      async handler({ body, ip, ctx }) {
        unwrap(await service.requestPasswordReset(body.email, ip, linkBase(ctx, config.console.publicUrl)));
        return { status: 202, body: { accepted: true as const } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/password-reset/confirm',
      operationId: 'resetPassword',
      summary: 'Set a new password with an emailed token',
      description:
        'The token works once, whatever the number of concurrent attempts; using it ends every browser session of the account (dashboard JWTs already issued run out within their hour). An unknown, used or expired token is `400 invalid_request`.',
      tags: ['Accounts'],
      auth: { kind: 'none' },
      body: z.strictObject({ token: ResetToken, password: Password }),
      responses: { 204: { description: 'The password is changed; sign in with it.' } },
      errors: ['rate_limited'],
      async handler({ body, ip }) {
        unwrap(await service.resetPassword(body.token, body.password, ip));
        return { status: 204 };
      },
    }),
  ];
}
