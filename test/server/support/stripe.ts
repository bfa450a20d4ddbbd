import Stripe from 'stripe';
import { FakeStripeServer } from '../../fakes/stripe-server.js';

/** Stripe settings of the test platforms (the fake checks the secret key like Stripe). */
export const STRIPE_SECRET = 'sk_test_kit_server_0123456789';
export const STRIPE_WEBHOOK_SECRET = 'whsec_test_kit_server_0123456789';
export const PRICES = Object.freeze({ pro: 'price_kit_pro', business: 'price_kit_business' });

/** Starts the loopback Stripe and returns it with the environment that points the server at it. */
export async function startStripe(): Promise<{ fake: FakeStripeServer; env: Record<string, string> }> {
  const fake = new FakeStripeServer(STRIPE_SECRET);
  const { port } = await fake.start();
  return {
    fake,
    env: {
      STRIPE_SECRET_KEY: STRIPE_SECRET,
      STRIPE_WEBHOOK_SECRET,
      KIT_STRIPE_PRICE_PRO: PRICES.pro,
      KIT_STRIPE_PRICE_BUSINESS: PRICES.business,
      KIT_STRIPE_API_BASE: `http://127.0.0.1:${port}`,
    },
  };
}

const signer = new Stripe(STRIPE_SECRET);

/** A webhook delivery signed with stripe-node's own test helper: the exact body and its Stripe-Signature. */
export function signedEvent(event: Record<string, unknown>, secret = STRIPE_WEBHOOK_SECRET): { body: string; signature: string } {
  const body = JSON.stringify(event, null, 2);
  return { body, signature: signer.webhooks.generateTestHeaderString({ payload: body, secret }) };
}

/** A Stripe event envelope. `created` is seconds since the epoch. */
export function stripeEvent(id: string, type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  return { id, object: 'event', api_version: '2025-01-01', created, type, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, data: { object } };
}

/** A subscription object on one price. */
export function subscription(status: string, price: string, orgId: string | null, customer = 'cus_x'): Record<string, unknown> {
  return {
    id: `sub_${customer}`,
    object: 'subscription',
    customer,
    status,
    metadata: orgId ? { org_id: orgId } : {},
    items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', price: { id: price, object: 'price' } }] },
  };
}

/** A completed, paid subscription checkout for an organisation. */
export function completedCheckout(orgId: string, plan: 'pro' | 'business', customer = 'cus_x'): Record<string, unknown> {
  return {
    id: `cs_${orgId}`,
    object: 'checkout.session',
    mode: 'subscription',
    payment_status: 'paid',
    client_reference_id: orgId,
    customer,
    subscription: `sub_${customer}`,
    metadata: { org_id: orgId, plan },
  };
}
