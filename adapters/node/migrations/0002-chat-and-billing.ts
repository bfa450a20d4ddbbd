import type { Knex } from 'knex';

/**
 * Part 2 of the Platform API: bot-challenge claims (one acceptance per solution across replicas), monthly token
 * totals kept by a trigger on `usage_events` (so the quota check is one indexed row, not a sum over the month),
 * and Stripe billing state (customer per organisation, applied webhook events, last plan change).
 */
export const chatAndBilling = {
  name: '0002-chat-and-billing',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('challenge_claims', (t) => {
      t.text('id').primary();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.index(['expires_at']);
    });

    await knex.schema.createTable('usage_monthly', (t) => {
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.date('month').notNullable();
      t.bigInteger('requests').notNullable().defaultTo(0);
      t.bigInteger('input_tokens').notNullable().defaultTo(0);
      t.bigInteger('output_tokens').notNullable().defaultTo(0);
      t.primary(['org_id', 'month']);
    });
    // Fires only for rows actually inserted: a duplicate request id (ON CONFLICT DO NOTHING) adds nothing.
    await knex.raw(`
      create function usage_monthly_add() returns trigger language plpgsql as $$
      begin
        insert into usage_monthly (org_id, month, requests, input_tokens, output_tokens)
        values (new.org_id, date_trunc('month', new.created_at at time zone 'UTC')::date, 1, new.input_tokens, new.output_tokens)
        on conflict (org_id, month) do update set
          requests = usage_monthly.requests + 1,
          input_tokens = usage_monthly.input_tokens + excluded.input_tokens,
          output_tokens = usage_monthly.output_tokens + excluded.output_tokens;
        return null;
      end $$`);
    await knex.raw('create trigger usage_events_monthly after insert on usage_events for each row execute function usage_monthly_add()');
    await knex.raw(`
      insert into usage_monthly (org_id, month, requests, input_tokens, output_tokens)
      select org_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*), sum(input_tokens), sum(output_tokens)
        from usage_events group by 1, 2`);

    await knex.schema.alterTable('organizations', (t) => {
      t.text('stripe_customer_id').unique();
      t.timestamp('tier_changed_at', { useTz: true });
    });
    await knex.schema.createTable('billing_events', (t) => {
      t.text('event_id').primary();
      t.text('type').notNullable();
      t.text('org_id');
      t.text('outcome').notNullable();
      t.timestamp('received_at', { useTz: true }).notNullable();
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTableIfExists('billing_events');
    await knex.schema.alterTable('organizations', (t) => {
      t.dropColumn('tier_changed_at');
      t.dropColumn('stripe_customer_id');
    });
    await knex.raw('drop trigger if exists usage_events_monthly on usage_events');
    await knex.raw('drop function if exists usage_monthly_add()');
    await knex.schema.dropTableIfExists('usage_monthly');
    await knex.schema.dropTableIfExists('challenge_claims');
  },
};
