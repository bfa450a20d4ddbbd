import type Stripe from 'stripe';
import { KitError } from '../../core/errors/index.js';
import type { Tier } from '../../core/ports/account-store.port.js';
import type { BillingPort, BillingWebhookOutcome, CheckoutRequest, CheckoutSession, PaidPlan } from '../../core/ports/billing.port.js';

/** Options of the Stripe billing adapter (`STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`, `KIT_STRIPE_PRICE_*`). */
export interface StripeBillingOptions {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** Stripe price id of each paid plan (a recurring price). */
  readonly prices: Readonly<Record<PaidPlan, string>>;
  /**
   * Extra stripe-node settings, e.g. `{ host, port, protocol }` for a test double or `maxNetworkRetries`.
   * Defaults: 2 network retries (safe: every POST carries an idempotency key), 20 s timeout.
   */
  readonly stripeConfig?: Stripe.StripeConfig;
  /** Largest accepted age of a webhook signature. Default 300 s (stripe-node's default). */
  readonly webhookToleranceSeconds?: number;
}

// Subscription states that keep the paid plan. past_due keeps it while Stripe retries the payment (dunning);
// canceled, unpaid, incomplete, incomplete_expired and paused fall back to free.
const PAID_STATUSES = new Set(['active', 'trialing', 'past_due']);

/**
 * stripe-node is imported on the first billing call rather than at start: it is ~250 files, a noticeable part of a
 * restart's module loading, and most servers (no STRIPE_SECRET_KEY, or no checkout since the start) never need it.
 */
function importStripe(): Promise<typeof Stripe> {
  return import(/* webpackIgnore: true */ 'stripe').then((m: { default?: typeof Stripe }) => (m.default ?? m) as typeof Stripe);
}

/** Billing through Stripe Checkout (subscriptions) and Stripe webhooks. */
export function createStripeBilling(options: StripeBillingOptions): BillingPort {
  let loaded: Promise<{ readonly Stripe: typeof Stripe; readonly stripe: Stripe }> | null = null;
  const client = () =>
    (loaded ??= importStripe().then((Stripe) => ({ Stripe, stripe: new Stripe(options.secretKey, { maxNetworkRetries: 2, timeout: 20_000, ...options.stripeConfig }) })));
  const planOfPrice = new Map<string, PaidPlan>(Object.entries(options.prices).map(([plan, price]) => [price, plan as PaidPlan]));
  const tolerance = options.webhookToleranceSeconds ?? 300;

  async function createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    const price = options.prices[request.plan];
    if (!price) throw new KitError('billing_unavailable', `No Stripe price is configured for the ${request.plan} plan.`);
    const { Stripe, stripe } = await client();
    try {
      let customerId = request.customerId ?? null;
      if (!customerId) {
        // One customer per organisation: a key derived from the org makes concurrent first checkouts share one
        // customer (Stripe keeps idempotency keys 24 h; the caller stores the id we return for later ones).
        const customer = await stripe.customers.create(
          { metadata: { org_id: request.orgId }, ...(request.email ? { email: request.email } : {}) },
          { idempotencyKey: `kit-customer-${request.orgId}` },
        );
        customerId = customer.id;
      }
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: customerId,
          client_reference_id: request.orgId,
          line_items: [{ price, quantity: 1 }],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          metadata: { org_id: request.orgId, plan: request.plan },
          // Copied onto the subscription, so its later events name the organisation too.
          subscription_data: { metadata: { org_id: request.orgId, plan: request.plan } },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!session.url) throw new KitError('billing_unavailable', 'Stripe returned a checkout session without a URL.');
      return { id: session.id, url: session.url, customerId };
    } catch (err) {
      if (err instanceof KitError) throw err;
      const type = err instanceof Stripe.errors.StripeError ? err.type : 'unknown';
      throw new KitError('billing_unavailable', 'Stripe could not create the checkout session.', { details: { stripe_error: type }, cause: err });
    }
  }

  async function createPortalSession(request: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const { Stripe, stripe } = await client();
    try {
      const session = await stripe.billingPortal.sessions.create({ customer: request.customerId, return_url: request.returnUrl });
      return { url: session.url };
    } catch (err) {
      const type = err instanceof Stripe.errors.StripeError ? err.type : 'unknown';
      throw new KitError('billing_unavailable', 'Stripe could not open the customer portal.', { details: { stripe_error: type }, cause: err });
    }
  }

  async function parseWebhook(rawBody: string | Uint8Array, signatureHeader: string | undefined): Promise<BillingWebhookOutcome> {
    if (!signatureHeader) return { ok: false, code: 'invalid_request', reason: 'The Stripe-Signature header is missing.' };
    const { stripe } = await client();
    let event: Stripe.Event;
    try {
      const payload = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
      event = await stripe.webhooks.constructEventAsync(payload, signatureHeader, options.webhookSecret, tolerance);
    } catch {
      return { ok: false, code: 'invalid_request', reason: 'The Stripe signature is invalid or too old.' };
    }
    const base = { eventId: event.id, type: event.type };
    const occurredAt = new Date(event.created * 1000);
    const ignored = (reason: string): BillingWebhookOutcome => ({ ok: true, value: { kind: 'ignored', ...base, reason } });
    const changed = (orgId: string | null, customerId: string | null, subscriptionId: string | null, tier: Tier): BillingWebhookOutcome => ({
      ok: true,
      value: { kind: 'plan_changed', ...base, orgId, customerId, subscriptionId, tier, occurredAt },
    });

    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.mode !== 'subscription') return ignored('not a subscription checkout');
        // Delayed payment methods complete the session unpaid; the subscription events carry the plan later.
        if (session.payment_status === 'unpaid') return ignored('checkout completed without payment yet');
        const plan = session.metadata?.plan;
        if (plan !== 'pro' && plan !== 'business') return ignored('checkout session without a Kit plan');
        return changed(session.client_reference_id ?? session.metadata?.org_id ?? null, idOf(session.customer), idOf(session.subscription), plan);
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const orgId = sub.metadata?.org_id ?? null;
        if (event.type === 'customer.subscription.deleted' || !PAID_STATUSES.has(sub.status)) return changed(orgId, idOf(sub.customer), sub.id, 'free');
        const plan = sub.items.data.map((item) => planOfPrice.get(item.price.id)).find((p) => p !== undefined);
        if (!plan) return ignored('subscription to a price no Kit plan uses');
        return changed(orgId, idOf(sub.customer), sub.id, plan);
      }
      default:
        return ignored('event type not used by Kit');
    }
  }

  async function deleteCustomer(customerId: string): Promise<void> {
    const { Stripe, stripe } = await client();
    try {
      // Stripe cancels every active subscription of a deleted customer immediately; invoices stay in Stripe's records.
      await stripe.customers.del(customerId);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing')) return;
      const type = err instanceof Stripe.errors.StripeError ? err.type : 'unknown';
      throw new KitError('billing_unavailable', 'Stripe could not delete the customer; nothing was deleted, try again.', { details: { stripe_error: type }, cause: err });
    }
  }

  return { createCheckoutSession, createPortalSession, parseWebhook, deleteCustomer };
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value == null) return null;
  return typeof value === 'string' ? value : value.id;
}
