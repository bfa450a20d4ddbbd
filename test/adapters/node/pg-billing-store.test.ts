import { expect } from 'chai';
import { migrateToLatest } from '../../../adapters/node/migrations/index.js';
import { createPgBillingStore } from '../../../adapters/node/pg-billing-store.js';
import type { PlanChangedEvent } from '../../../core/ports/billing.port.js';
import { newId } from '../../../server/ids.js';
import { describeOnEachDatabase } from '../../support/databases.js';

describe('createPgBillingStore', () => {
  describeOnEachDatabase('plan changes', (db) => {
    before(async () => {
      await migrateToLatest(db().knex);
    });
    async function org(): Promise<string> {
      const id = newId('org');
      await db().knex('organizations').insert({ id, name: 'billing store', tier: 'free', created_at: new Date() });
      return id;
    }
    const change = (orgId: string | null, tier: PlanChangedEvent['tier'], at: string, customerId: string | null = null): PlanChangedEvent => ({
      kind: 'plan_changed',
      eventId: newId('req').replace('req_', 'evt_'),
      type: 'customer.subscription.updated',
      orgId,
      customerId,
      subscriptionId: 'sub_1',
      tier,
      occurredAt: new Date(at),
    });
    const tierOf = async (id: string) => (await db().knex('organizations').where({ id }).first()).tier;

    it('stores the customer once and finds the organization by it', async () => {
      const store = createPgBillingStore(db().knex);
      const id = await org();
      const customer = `cus_${id}`;
      expect(await store.customerOf(id)).to.equal(null);
      await store.saveCustomer(id, customer);
      await store.saveCustomer(id, 'cus_other');
      expect(await store.customerOf(id)).to.equal(customer);
      expect(await store.applyPlanChange(change(null, 'pro', '2026-03-01T00:00:00Z', customer), new Date())).to.equal('applied');
      expect(await tierOf(id)).to.equal('pro');
      expect(await store.applyPlanChange(change(null, 'pro', '2026-03-01T00:00:00Z', 'cus_nobody'), new Date())).to.equal('unknown_org');
    });

    it('never lets an older event overwrite a newer one', async () => {
      const store = createPgBillingStore(db().knex);
      const id = await org();
      expect(await store.applyPlanChange(change(id, 'business', '2026-03-02T00:00:00Z'), new Date())).to.equal('applied');
      expect(await store.applyPlanChange(change(id, 'pro', '2026-03-01T00:00:00Z'), new Date())).to.equal('stale');
      expect(await tierOf(id)).to.equal('business');
    });

    it('applies concurrent deliveries of one event once', async () => {
      const stores = [createPgBillingStore(db().knex), createPgBillingStore(db().knex)];
      const id = await org();
      const event = change(id, 'pro', '2026-03-03T00:00:00Z');
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.applyPlanChange(event, new Date())));
      expect(outcomes.filter((o) => o === 'applied')).to.have.length(1);
      expect(outcomes.filter((o) => o === 'duplicate')).to.have.length(7);
      const row = await db().knex('billing_events').where({ event_id: event.eventId }).first();
      expect(row).to.include({ org_id: id, outcome: 'applied' });
    });
  });
});
