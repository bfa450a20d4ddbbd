import { expect } from 'chai';
import type { FakeStripeServer } from '../../fakes/stripe-server.js';
import type { Platform } from '../../../server/platform.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg, type SeededOrg } from '../../support/platform.js';
import { completedCheckout, PRICES, signedEvent, startStripe, stripeEvent, subscription } from '../support/stripe.js';

describe('billingRoutes', () => {
  describe('with Stripe configured', () => {
    let stripe: Awaited<ReturnType<typeof startStripe>>;
    let fake: FakeStripeServer;
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };
    let org: SeededOrg;
    const checkout = (token: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/v1/billing/checkout`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const deliver = (event: Record<string, unknown>, secret?: string) => {
      const { body, signature } = signedEvent(event, secret);
      return fetch(`${server.url}/v1/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });
    };
    const tier = async (orgId: string) => (await platform.database.knex('organizations').where({ id: orgId }).first()).tier as string;
    const PLAN = { plan: 'pro', success_url: 'https://app.example.com/billing/done', cancel_url: 'https://app.example.com/billing' };

    before(async function () {
      this.timeout(120_000);
      stripe = await startStripe();
      fake = stripe.fake;
      platform = await createTestPlatform({ database: await sharedPglite(), env: stripe.env });
      server = await listen(platform);
      org = await seedOrg(platform, 'billing');
    });
    after(async () => {
      await server.close();
      await platform.close();
      await fake.stop();
    });

    it('creates one Stripe customer per organization and a subscription checkout with an idempotency key', async () => {
      const first = await checkout(org.members.admin.token, PLAN);
      expect(first.status).to.equal(201);
      const session = await first.json();
      expect(session.url).to.match(/^https:\/\/checkout\.stripe\.com\//);
      const customers = fake.calls.filter((c) => c.path === '/v1/customers');
      expect(customers).to.have.length(1);
      expect(customers[0]!.form['metadata[org_id]']).to.equal(org.orgId);
      expect(customers[0]!.form.email).to.equal(org.members.admin.email);
      const stored = (await platform.database.knex('organizations').where({ id: org.orgId }).first()).stripe_customer_id;
      expect(stored).to.match(/^cus_/);
      const sessionCall = fake.calls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!;
      expect(sessionCall.form).to.include({ customer: stored, mode: 'subscription', 'line_items[0][price]': PRICES.pro, client_reference_id: org.orgId });
      expect(sessionCall.headers['idempotency-key']).to.match(/^kit-checkout-org_/);

      const second = await checkout(org.members.owner.token, { ...PLAN, plan: 'business' });
      expect(second.status).to.equal(201);
      expect(fake.calls.filter((c) => c.path === '/v1/customers')).to.have.length(1); // reused
      expect(fake.calls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!.form.customer).to.equal(stored);
    });

    it('returns the same session for a retried request with the same Idempotency-Key', async () => {
      const a = await (await checkout(org.members.owner.token, PLAN, { 'idempotency-key': 'retry-1' })).json();
      const b = await (await checkout(org.members.owner.token, PLAN, { 'idempotency-key': 'retry-1' })).json();
      const c = await (await checkout(org.members.owner.token, PLAN)).json();
      expect(a.id).to.equal(b.id);
      expect(c.id).to.not.equal(a.id);
    });

    it('answers billing_unavailable when Stripe fails', async () => {
      fake.failStatus = 500;
      try {
        const res = await checkout(org.members.owner.token, PLAN);
        expect(res.status).to.equal(503);
        expect((await res.json()).error.code).to.equal('billing_unavailable');
      } finally {
        fake.failStatus = undefined;
      }
    });

    it('applies a paid checkout to the tier once per event id', async () => {
      const target = await seedOrg(platform, 'billing-webhook');
      const event = stripeEvent(`evt_${target.orgId}_1`, 'checkout.session.completed', completedCheckout(target.orgId, 'pro', `cus_${target.orgId}`));
      const res = await deliver(event);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ received: true, event_id: event.id, outcome: 'applied' });
      expect(await tier(target.orgId)).to.equal('pro');
      // the organization is downgraded elsewhere; a redelivery of the old event must not re-apply it
      await platform.database.knex('organizations').where({ id: target.orgId }).update({ tier: 'free' });
      expect((await (await deliver(event)).json()).outcome).to.equal('duplicate');
      expect(await tier(target.orgId)).to.equal('free');
    });

    it('follows subscription updates and deletions, finds the organization by customer, and skips stale events', async () => {
      const target = await seedOrg(platform, 'billing-sub');
      const customer = `cus_${target.orgId}`;
      const t0 = Math.floor(Date.now() / 1000);
      expect((await (await deliver(stripeEvent(`evt_${customer}_a`, 'checkout.session.completed', completedCheckout(target.orgId, 'pro', customer), t0))).json()).outcome).to.equal('applied');
      // no org_id in the metadata: found by the stored customer
      expect((await (await deliver(stripeEvent(`evt_${customer}_b`, 'customer.subscription.updated', subscription('active', PRICES.business, null, customer), t0 + 10))).json()).outcome).to.equal('applied');
      expect(await tier(target.orgId)).to.equal('business');
      // an older event arriving late changes nothing
      expect((await (await deliver(stripeEvent(`evt_${customer}_old`, 'customer.subscription.updated', subscription('active', PRICES.pro, target.orgId, customer), t0 + 5))).json()).outcome).to.equal('stale');
      expect(await tier(target.orgId)).to.equal('business');
      expect((await (await deliver(stripeEvent(`evt_${customer}_c`, 'customer.subscription.deleted', subscription('canceled', PRICES.business, target.orgId, customer), t0 + 20))).json()).outcome).to.equal('applied');
      expect(await tier(target.orgId)).to.equal('free');
    });

    it('applies concurrent deliveries of one event exactly once', async () => {
      const target = await seedOrg(platform, 'billing-race');
      const event = stripeEvent(`evt_race_${target.orgId}`, 'checkout.session.completed', completedCheckout(target.orgId, 'business', `cus_race_${target.orgId}`));
      const outcomes = await Promise.all(Array.from({ length: 5 }, async () => (await (await deliver(event)).json()).outcome));
      expect(outcomes.filter((o) => o === 'applied')).to.have.length(1);
      expect(outcomes.filter((o) => o === 'duplicate')).to.have.length(4);
    });

    it('refuses a bad signature, another secret or a changed body with invalid_request', async () => {
      const event = stripeEvent('evt_forged', 'checkout.session.completed', completedCheckout(org.orgId, 'business'));
      const other = await deliver(event, 'whsec_someone_else_0123456789');
      expect(other.status).to.equal(400);
      expect((await other.json()).error.code).to.equal('invalid_request');
      const { body, signature } = signedEvent(event);
      const changed = await fetch(`${server.url}/v1/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: body.replace('business', 'pro') });
      expect(changed.status).to.equal(400);
      const unsigned = await fetch(`${server.url}/v1/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(unsigned.status).to.equal(400);
      expect(await tier(org.orgId)).to.equal('free');
    });

    it('answers 200 to event types Kit does not use, once', async () => {
      const event = stripeEvent('evt_invoice_1', 'invoice.paid', { id: 'in_1', object: 'invoice' });
      expect((await (await deliver(event)).json()).outcome).to.equal('ignored');
      expect((await (await deliver(event)).json()).outcome).to.equal('duplicate');
    });
  });

  describe('without Stripe', () => {
    it('answers billing_unavailable on both routes', async function () {
      this.timeout(60_000);
      const platform = await createTestPlatform({ database: await sharedPglite() });
      const server = await listen(platform);
      try {
        const org = await seedOrg(platform, 'billing-none');
        const checkout = await fetch(`${server.url}/v1/billing/checkout`, {
          method: 'POST',
          headers: { authorization: `Bearer ${org.members.owner.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ plan: 'pro', success_url: 'https://a.example/ok', cancel_url: 'https://a.example/no' }),
        });
        expect([checkout.status, (await checkout.json()).error.code]).to.deep.equal([503, 'billing_unavailable']);
        const { body, signature } = signedEvent(stripeEvent('evt_none', 'invoice.paid', {}));
        const webhook = await fetch(`${server.url}/v1/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });
        expect([webhook.status, (await webhook.json()).error.code]).to.deep.equal([503, 'billing_unavailable']);
      } finally {
        await server.close();
        await platform.close();
      }
    });
  });
});
