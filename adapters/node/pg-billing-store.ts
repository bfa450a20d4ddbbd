import type { Knex } from 'knex';
import type { Tier } from '../../core/ports/account-store.port.js';
import type { PlanChangedEvent } from '../../core/ports/billing.port.js';

/** What applying a webhook event did. */
export type BillingEventOutcome =
  | 'applied' // the organisation's tier is now the event's
  | 'duplicate' // this event id was handled before: nothing changed
  | 'stale' // a newer event already set the tier
  | 'unknown_org' // no organisation matches the event's org id or customer
  | 'ignored'; // a verified event Kit does not act on

/** Billing state of organisations: their Stripe customer, and webhook events applied once each. */
export interface BillingStore {
  /** The organisation's stored customer id, or null. */
  customerOf(orgId: string): Promise<string | null>;
  /** Stores the customer id unless the organisation already has one. */
  saveCustomer(orgId: string, customerId: string): Promise<void>;
  /** Applies a plan change once per event id; events older than the last applied change leave the tier alone. */
  applyPlanChange(event: PlanChangedEvent, receivedAt: Date): Promise<BillingEventOutcome>;
  /** Records a verified event that needs no action, so a redelivery is recognised too. */
  recordIgnored(eventId: string, type: string, receivedAt: Date): Promise<'ignored' | 'duplicate'>;
}

/** Billing state in `organizations` (stripe_customer_id, tier_changed_at) and `billing_events`. */
export function createPgBillingStore(knex: Knex): BillingStore {
  return {
    async customerOf(orgId) {
      const row = await knex('organizations').where({ id: orgId }).first<{ stripe_customer_id: string | null } | undefined>('stripe_customer_id');
      return row?.stripe_customer_id ?? null;
    },

    async saveCustomer(orgId, customerId) {
      await knex('organizations').where({ id: orgId }).whereNull('stripe_customer_id').update({ stripe_customer_id: customerId });
    },

    async applyPlanChange(event, receivedAt) {
      return knex.transaction(async (trx) => {
        // Claim the event id first: a concurrent delivery of the same event waits on this row's key until we
        // commit, then finds it taken and changes nothing.
        const claimed = await trx('billing_events')
          .insert({ event_id: event.eventId, type: event.type, org_id: null, outcome: 'unknown_org', received_at: receivedAt })
          .onConflict('event_id')
          .ignore()
          .returning('event_id');
        if (claimed.length === 0) return 'duplicate' as const;
        const org =
          (event.orgId ? await trx('organizations').where({ id: event.orgId }).first<{ id: string } | undefined>('id') : undefined) ??
          (event.customerId ? await trx('organizations').where({ stripe_customer_id: event.customerId }).first<{ id: string } | undefined>('id') : undefined);
        if (!org) return 'unknown_org' as const;
        // Stripe does not deliver in order: an event older than the last applied change must not undo it.
        const updated = await trx('organizations')
          .where({ id: org.id })
          .andWhere((q) => q.whereNull('tier_changed_at').orWhere('tier_changed_at', '<=', event.occurredAt))
          .update({ tier: event.tier satisfies Tier, tier_changed_at: event.occurredAt });
        if (event.customerId) await trx('organizations').where({ id: org.id }).whereNull('stripe_customer_id').update({ stripe_customer_id: event.customerId });
        const outcome: BillingEventOutcome = updated > 0 ? 'applied' : 'stale';
        await trx('billing_events').where({ event_id: event.eventId }).update({ org_id: org.id, outcome });
        return outcome;
      });
    },

    async recordIgnored(eventId, type, receivedAt) {
      const claimed = await knex('billing_events').insert({ event_id: eventId, type, org_id: null, outcome: 'ignored', received_at: receivedAt }).onConflict('event_id').ignore().returning('event_id');
      return claimed.length > 0 ? 'ignored' : 'duplicate';
    },
  };
}
