import { ContainerModule } from 'inversify';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createPgAccountStore } from '../../adapters/node/pg-account-store.js';
import { authRoutes } from '../routes/auth.routes.js';
import { orgRoutes } from '../routes/org.routes.js';
import { AccountService } from '../services/account-service.js';
import { OrgService } from '../services/org-service.js';
import { TOKENS } from '../tokens.js';
import { linkBase } from '../auth/browser-auth.js';
import type { ServerConfig } from '../config.js';
import type { ConsoleAccountService } from '../services/console-account-service.js';

/** Accounts, organisations and members: store, services and routes. */
export const accountsModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.AccountStore).toResolvedValue((db: KnexDatabase) => createPgAccountStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.AccountService).to(AccountService);
  bind(TOKENS.OrgService).to(OrgService);
  bind(TOKENS.Routes).toResolvedValue((accounts: AccountService) => authRoutes(accounts), [TOKENS.AccountService]);
  bind(TOKENS.Routes).toResolvedValue(
    (orgs: OrgService, console: ConsoleAccountService, config: ServerConfig) =>
      orgRoutes(orgs, (auth, invitation, ctx) => console.sendInvitation(auth, invitation, linkBase(ctx, config.console.publicUrl))),
    [TOKENS.OrgService, TOKENS.ConsoleAccounts, TOKENS.Config],
  );
});
