import 'reflect-metadata';
import { Container, type ContainerModule } from 'inversify';
import { accountsModule } from './modules/accounts.module.js';
import { billingModule } from './modules/billing.module.js';
import { chatModule } from './modules/chat.module.js';
import { consoleModule } from './modules/console.module.js';
import { demoModule } from './modules/demo.module.js';
import { infrastructureModule, type InfrastructureDeps } from './modules/infrastructure.module.js';
import { keysModule } from './modules/keys.module.js';
import { usageModule } from './modules/usage.module.js';
import { insightsModule } from './modules/insights.module.js';

/**
 * The feature modules. Chat comes first because shutdown hooks run in binding order: in-flight streams drain
 * (and write their usage rows) before key last-use times are flushed and the database closes.
 */
export const FEATURE_MODULES: readonly ContainerModule[] = Object.freeze([chatModule, accountsModule, keysModule, usageModule, billingModule, insightsModule, demoModule, consoleModule]);

/**
 * The server's composition root: one singleton container with the infrastructure, every feature module and
 * any `extra` modules (tests and later parts bind more routes through TOKENS.Routes).
 */
export function buildContainer(deps: InfrastructureDeps, extra: readonly ContainerModule[] = []): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(infrastructureModule(deps), ...FEATURE_MODULES, ...extra);
  return container;
}
