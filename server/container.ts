import 'reflect-metadata';
import { Container, type ContainerModule } from 'inversify';
import { accountsModule } from './modules/accounts.module.js';
import { infrastructureModule, type InfrastructureDeps } from './modules/infrastructure.module.js';
import { keysModule } from './modules/keys.module.js';
import { usageModule } from './modules/usage.module.js';

/** The feature modules of part 1; part 2 appends its own (config/session/chat, billing). */
export const FEATURE_MODULES: readonly ContainerModule[] = Object.freeze([accountsModule, keysModule, usageModule]);

/**
 * The server's composition root: one singleton container with the infrastructure, every feature module and
 * any `extra` modules (tests and later parts bind more routes through TOKENS.Routes).
 */
export function buildContainer(deps: InfrastructureDeps, extra: readonly ContainerModule[] = []): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(infrastructureModule(deps), ...FEATURE_MODULES, ...extra);
  return container;
}
