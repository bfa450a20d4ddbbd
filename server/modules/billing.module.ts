import { ContainerModule } from 'inversify';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createPgBillingStore } from '../../adapters/node/pg-billing-store.js';
import { createStripeBilling } from '../../adapters/node/stripe-billing.js';
import type { ServerConfig } from '../config.js';
import { billingRoutes } from '../routes/billing.routes.js';
import { BillingService } from '../services/billing-service.js';
import { TOKENS } from '../tokens.js';

/** Stripe settings for a base URL like `http://127.0.0.1:12111` (KIT_STRIPE_API_BASE: stripe-mock, a test double). */
function stripeHost(apiBase: string | null): { host: string; port: number; protocol: 'http' | 'https' } | object {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/** Billing: the Stripe adapter (absent without configuration), the billing state store, the service and routes. */
export const billingModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.Billing).toResolvedValue(
    (config: ServerConfig) =>
      config.stripe
        ? createStripeBilling({
            secretKey: config.stripe.secretKey,
            webhookSecret: config.stripe.webhookSecret,
            prices: { pro: config.stripe.pricePro, business: config.stripe.priceBusiness },
            stripeConfig: stripeHost(config.stripe.apiBase),
          })
        : null,
    [TOKENS.Config],
  );
  bind(TOKENS.BillingStore).toResolvedValue((db: KnexDatabase) => createPgBillingStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.BillingService).to(BillingService);
  bind(TOKENS.Routes).toResolvedValue((billing: BillingService) => billingRoutes(billing), [TOKENS.BillingService]);
});
