import { expect } from 'chai';
import Stripe from 'stripe';
import { createStripeBilling, type StripeBillingOptions } from '../../../adapters/node/stripe-billing.js';
import { isKitError } from '../../../core/errors/index.js';
import type { BillingPort } from '../../../core/ports/billing.port.js';
import { FakeStripeServer } from '../../fakes/stripe-server.js';

const SECRET_KEY = 'sk_test_kit_fake_0123456789';
const WEBHOOK_SECRET = 'whsec_test_kit_0123456789';
const PRICES = { pro: 'price_pro_monthly', business: 'price_business_monthly' };
const signer = new Stripe(SECRET_KEY);

function signed(event: Record<string, unknown>, secret = WEBHOOK_SECRET, timestamp?: number): { body: string; header: string } {
  const body = JSON.stringify(event, null, 2);
  return { body, header: signer.webhooks.generateTestHeaderString({ payload: body, secret, ...(timestamp ? { timestamp } : {}) }) };
}

function event(type: string, object: Record<string, unknown>, id = 'evt_1'): Record<string, unknown> {
  return { id, object: 'event', api_version: '2025-01-01', created: 1_760_000_000, type, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, data: { object } };
}

function subscription(status: string, price: string, metadata: Record<string, string> = { org_id: 'org_A' }): Record<string, unknown> {
  return { id: 'sub_1', object: 'subscription', customer: 'cus_1', status, metadata, items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', price: { id: price, object: 'price' } }] } };
}

describe('createStripeBilling', () => {
  let fake: FakeStripeServer;
  let billing: BillingPort;
  let address: { host: string; port: number; protocol: 'http' };
  const make = (extra: Partial<StripeBillingOptions> = {}, address?: { host: string; port: number; protocol: 'http' }) =>
    createStripeBilling({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, prices: PRICES, stripeConfig: { ...address, maxNetworkRetries: 0 }, ...extra });

  beforeEach(async () => {
    fake = new FakeStripeServer(SECRET_KEY);
    address = await fake.start();
    billing = make({}, address);
  });
  afterEach(async () => {
    await fake.stop();
  });

  describe('deleteCustomer', () => {
    it("deletes the organisation's customer, and counts one already gone as deleted", async () => {
      await billing.deleteCustomer('cus_gone1');
      expect(fake.calls.map((c) => `${c.method} ${c.path}`)).to.deep.equal(['DELETE /v1/customers/cus_gone1']);
      expect(fake.deleted.has('cus_gone1')).to.equal(true);
      await billing.deleteCustomer('cus_gone1');
      expect(fake.calls).to.have.length(2);
    });

    it('throws billing_unavailable when Stripe fails', async () => {
      fake.failStatus = 500;
      const err = await billing.deleteCustomer('cus_fail1').then(() => null, (e: unknown) => e);
      expect(isKitError(err) && err.code).to.equal('billing_unavailable');
    });
  });

  describe('createCheckoutSession', () => {
    const request = { orgId: 'org_A', plan: 'pro' as const, successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/cancel', idempotencyKey: 'req_123' };

    it('creates the customer of the organisation and a subscription session with the plan price', async () => {
      const session = await billing.createCheckoutSession({ ...request, email: 'owner@example.com' });
      expect(fake.calls.map((c) => `${c.method} ${c.path}`)).to.deep.equal(['POST /v1/customers', 'POST /v1/checkout/sessions']);
      const [customer, checkout] = fake.calls;
      expect(customer?.headers.authorization).to.equal(`Bearer ${SECRET_KEY}`);
      expect(customer?.headers['idempotency-key']).to.equal('kit-customer-org_A');
      expect(customer?.form).to.deep.equal({ 'metadata[org_id]': 'org_A', email: 'owner@example.com' });
      expect(checkout?.headers['idempotency-key']).to.equal('req_123');
      expect(checkout?.form).to.deep.equal({
        mode: 'subscription',
        customer: session.customerId,
        client_reference_id: 'org_A',
        'line_items[0][price]': 'price_pro_monthly',
        'line_items[0][quantity]': '1',
        success_url: 'https://app.example/ok',
        cancel_url: 'https://app.example/cancel',
        'metadata[org_id]': 'org_A',
        'metadata[plan]': 'pro',
        'subscription_data[metadata][org_id]': 'org_A',
        'subscription_data[metadata][plan]': 'pro',
      });
      expect(session.customerId).to.match(/^cus_test/);
      expect(session.id).to.match(/^cs_test_/);
      expect(session.url).to.equal(`https://checkout.stripe.com/c/pay/${session.id}`);
    });

    it('reuses the stored customer and sends the business price when the organisation has one', async () => {
      const session = await billing.createCheckoutSession({ ...request, plan: 'business', customerId: 'cus_existing' });
      expect(fake.calls.map((c) => c.path)).to.deep.equal(['/v1/checkout/sessions']);
      expect(fake.calls[0]?.form['line_items[0][price]']).to.equal('price_business_monthly');
      expect(session.customerId).to.equal('cus_existing');
    });

    it('returns the same session when a request is retried with its idempotency key', async () => {
      const a = await billing.createCheckoutSession(request);
      const b = await billing.createCheckoutSession(request);
      expect(b).to.deep.equal(a);
      const c = await billing.createCheckoutSession({ ...request, idempotencyKey: 'req_124' });
      expect(c.id).not.to.equal(a.id);
      expect(c.customerId).to.equal(a.customerId);
    });

    it('throws billing_unavailable without the secret key when Stripe refuses or fails', async () => {
      for (const failing of [make({ secretKey: 'sk_test_wrong' }, address), billing]) {
        if (failing === billing) fake.failStatus = 500;
        let caught: unknown;
        try {
          await failing.createCheckoutSession(request);
        } catch (err) {
          caught = err;
        }
        expect(isKitError(caught) && caught.code).to.equal('billing_unavailable');
        expect(String((caught as Error).message)).not.to.include('sk_test');
      }
    });
  });

  describe('parseWebhook', () => {
    it('maps a paid checkout.session.completed to the plan of its metadata', async () => {
      const { body, header } = signed(
        event('checkout.session.completed', { id: 'cs_1', object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: 'org_A', customer: 'cus_1', subscription: 'sub_1', metadata: { org_id: 'org_A', plan: 'business' } }, 'evt_checkout'),
      );
      const outcome = await billing.parseWebhook(Buffer.from(body), header);
      expect(outcome).to.deep.equal({
        ok: true,
        value: { kind: 'plan_changed', eventId: 'evt_checkout', type: 'checkout.session.completed', orgId: 'org_A', customerId: 'cus_1', subscriptionId: 'sub_1', tier: 'business', occurredAt: new Date(1_760_000_000_000) },
      });
    });

    const subscriptionCases: Array<{ name: string; type: string; status: string; price: string; tier: string | null }> = [
      { name: 'an active subscription to the pro price', type: 'customer.subscription.updated', status: 'active', price: PRICES.pro, tier: 'pro' },
      { name: 'a past-due business subscription (Stripe still retrying)', type: 'customer.subscription.updated', status: 'past_due', price: PRICES.business, tier: 'business' },
      { name: 'a canceled subscription', type: 'customer.subscription.updated', status: 'canceled', price: PRICES.pro, tier: 'free' },
      { name: 'an unpaid subscription', type: 'customer.subscription.updated', status: 'unpaid', price: PRICES.business, tier: 'free' },
      { name: 'a deleted subscription', type: 'customer.subscription.deleted', status: 'canceled', price: PRICES.pro, tier: 'free' },
      { name: 'an active subscription to a foreign price', type: 'customer.subscription.updated', status: 'active', price: 'price_other', tier: null },
    ];
    for (const c of subscriptionCases) {
      it(`maps ${c.name} to ${c.tier ?? 'an ignored event'}`, async () => {
        const { body, header } = signed(event(c.type, subscription(c.status, c.price)));
        const outcome = await billing.parseWebhook(body, header);
        expect(outcome.ok).to.equal(true);
        if (!outcome.ok) return;
        if (c.tier === null) expect(outcome.value.kind).to.equal('ignored');
        else expect(outcome.value).to.include({ kind: 'plan_changed', tier: c.tier, orgId: 'org_A', customerId: 'cus_1', subscriptionId: 'sub_1' });
      });
    }

    it('ignores other event types and unpaid checkouts', async () => {
      for (const e of [event('invoice.paid', { id: 'in_1', object: 'invoice' }), event('checkout.session.completed', { id: 'cs_2', object: 'checkout.session', mode: 'subscription', payment_status: 'unpaid', metadata: { plan: 'pro' } })]) {
        const { body, header } = signed(e);
        const outcome = await billing.parseWebhook(body, header);
        expect(outcome.ok && outcome.value.kind).to.equal('ignored');
      }
    });

    it('refuses a payload that is missing, altered, signed with another secret or too old', async () => {
      const good = signed(event('customer.subscription.deleted', subscription('canceled', PRICES.pro)));
      const stale = signed(event('customer.subscription.deleted', subscription('canceled', PRICES.pro)), WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600);
      const other = signed(event('customer.subscription.deleted', subscription('canceled', PRICES.pro)), 'whsec_other');
      const cases: Array<[string, string, string | undefined]> = [
        ['no header', good.body, undefined],
        ['altered body', good.body.replace('org_A', 'org_B'), good.header],
        ['other secret', other.body, other.header],
        ['too old', stale.body, stale.header],
        ['garbage header', good.body, 't=1,v1=abc'],
      ];
      for (const [name, body, header] of cases) {
        const outcome = await billing.parseWebhook(body, header);
        expect(outcome, name).to.deep.include({ ok: false, code: 'invalid_request' });
      }
      expect((await billing.parseWebhook(good.body, good.header)).ok).to.equal(true);
    });
  });
});
