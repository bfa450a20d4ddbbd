import { join } from 'node:path';
import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createOutboxMailer } from '../../adapters/node/outbox-mailer.js';
import { createPgBrowserSessionStore } from '../../adapters/node/pg-browser-session-store.js';
import { createPgPasswordResetStore } from '../../adapters/node/pg-password-reset-store.js';
import { createSmtpMailer } from '../../adapters/node/smtp-mailer.js';
import type { MailerPort } from '../../core/ports/mailer.port.js';
import type { ServerConfig } from '../config.js';
import { ConsoleSite } from '../console/console-site.js';
import { membershipRoutes } from '../routes/membership.routes.js';
import { passwordRoutes } from '../routes/password.routes.js';
import { previewRoutes } from '../routes/preview.routes.js';
import { sessionRoutes } from '../routes/session.routes.js';
import { PreviewGrants } from '../services/preview-grants.js';
import { BrowserSessionService } from '../services/browser-session-service.js';
import { ConsoleAccountService } from '../services/console-account-service.js';
import { TOKENS } from '../tokens.js';

/** The mailer of this configuration: SMTP when KIT_SMTP_URL is set, else the development outbox. */
export function createMailer(config: ServerConfig, logger: Logger): MailerPort {
  if (config.mail.smtpUrl) return createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from });
  const dir = join(config.dataDir, 'outbox');
  const development = config.nodeEnv !== 'production';
  return createOutboxMailer({
    dir,
    from: config.mail.from,
    // The outbox is for development: the log shows the message so its link can be followed. In production (no
    // SMTP configured) only where it went is logged, since the text carries one-time links.
    onWritten: ({ path, message }) =>
      logger.info({ mail: message.kind, to: message.to, subject: message.subject, path, ...(development ? { text: message.text } : {}) }, 'email written to the outbox (KIT_SMTP_URL is unset)'),
  });
}

/** The console (issue 14): browser sessions, password reset, invitation email, its files, email transport. */
export const consoleModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.BrowserSessionStore).toResolvedValue((db: KnexDatabase) => createPgBrowserSessionStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.PasswordResetStore).toResolvedValue((db: KnexDatabase) => createPgPasswordResetStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.Mailer).toResolvedValue((config: ServerConfig, logger: Logger) => createMailer(config, logger), [TOKENS.Config, TOKENS.Logger]);
  bind(TOKENS.BrowserSessions).to(BrowserSessionService);
  bind(TOKENS.ConsoleAccounts).to(ConsoleAccountService);
  bind(TOKENS.ConsoleSite).to(ConsoleSite);
  bind(TOKENS.PreviewGrants).to(PreviewGrants);
  bind(TOKENS.Routes).toResolvedValue(
    (service: ConsoleAccountService, sessions: BrowserSessionService, config: ServerConfig, grants: PreviewGrants) => [
      ...sessionRoutes(service, sessions, config),
      ...passwordRoutes(service, config),
      ...membershipRoutes(service),
      ...previewRoutes(grants),
    ],
    [TOKENS.ConsoleAccounts, TOKENS.BrowserSessions, TOKENS.Config, TOKENS.PreviewGrants],
  );
  bind(TOKENS.ShutdownHooks).toResolvedValue((mailer: MailerPort) => () => mailer.close(), [TOKENS.Mailer]);
});
