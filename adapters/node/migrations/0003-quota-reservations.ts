import type { Knex } from 'knex';

/**
 * Exact monthly quotas and cheap usage reports (issues 11.1, 12.1, 12.3).
 *
 * - `org_meters`: one row per organisation and month holding the tokens `used` (settled), the tokens `reserved` by
 *   chats in flight, and the organisation's current one-minute request window. `/chat` admission reserves its worst
 *   case against it in one conditional upsert; the end of the chat settles it. It replaces `usage_monthly`, whose
 *   trigger updated the organisation's row inside every usage insert (a hot row, and quadratic bulk inserts).
 * - `usage_events` rows are written at admission (`state = 'reserved'`, `reserved_tokens`, `expires_at`) and settled
 *   to the real figures at the end (`settled`), or released by a sweep when the process that owned them died
 *   (`expired`). So a chat has exactly one row from the moment it is admitted.
 * - `usage_daily` (per organisation, UTC day, model and mode), `usage_daily_keys` (per day and key) and
 *   `usage_monthly_keys` (per month and key), rolled up from settled rows off the request path (`rolled` marks the
 *   rows already counted); reports read them plus the few rows not rolled yet.
 */
export const quotaReservations = {
  name: '0003-quota-reservations',
  async up(knex: Knex): Promise<void> {
    await knex.raw('drop trigger if exists usage_events_monthly on usage_events');
    await knex.raw('drop function if exists usage_monthly_add()');

    await knex.schema.createTable('org_meters', (t) => {
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.date('month').notNullable();
      t.bigInteger('used').notNullable().defaultTo(0);
      t.bigInteger('reserved').notNullable().defaultTo(0);
      t.timestamp('window_start', { useTz: true }).notNullable();
      t.integer('window_count').notNullable().defaultTo(0);
      t.boolean('admitted').notNullable().defaultTo(false);
      t.primary(['org_id', 'month']);
    });
    await knex.raw(`
      insert into org_meters (org_id, month, used, reserved, window_start, window_count)
      select org_id, month, input_tokens + output_tokens, 0, 'epoch'::timestamptz, 0 from usage_monthly`);
    await knex.schema.dropTableIfExists('usage_monthly');

    await knex.schema.alterTable('usage_events', (t) => {
      t.text('state').notNullable().defaultTo('settled');
      t.integer('reserved_tokens').notNullable().defaultTo(0);
      t.timestamp('expires_at', { useTz: true });
      t.boolean('rolled').notNullable().defaultTo(false);
      t.check("state in ('reserved', 'settled', 'expired')", [], 'usage_events_state_check');
    });
    // Few indexes, none on a column the settlement changes, and room on each page: settling a chat is then a HOT
    // update (no index entry written). Reports read the rollups, so the per-key index has no reader left; the sweep
    // of dead reservations and the rollup find their rows through the small partial index of rows not rolled yet.
    await knex.raw('drop index if exists usage_events_org_id_key_id_created_at_index');
    // One index serves the reports' time ranges, the settlement's lookup and a recorded event's idempotency: its
    // entries go in time order, so inserts and lookups touch the newest pages only, whatever the table's size (a
    // unique index on the random request id alone touched a random page of a large index per chat).
    await knex.raw('create unique index usage_events_org_created_request_unique on usage_events (org_id, created_at, request_id)');
    await knex.raw('alter table usage_events drop constraint if exists usage_events_request_id_unique');
    await knex.raw('drop index if exists usage_events_org_id_created_at_index');
    await knex.raw('create index usage_events_unrolled_idx on usage_events (org_id, created_at) where not rolled');
    await knex.raw('alter table usage_events set (fillfactor = 90)');

    // Three rollups, each as small as its reports allow: per day (the day, model and mode breakdowns), per day and
    // key, and per month and key (the key breakdown reads whole months from the last).
    await knex.schema.createTable('usage_daily', (t) => {
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.date('day').notNullable();
      t.text('model').notNullable();
      t.text('mode').notNullable();
      t.bigInteger('requests').notNullable();
      t.bigInteger('input_tokens').notNullable();
      t.bigInteger('output_tokens').notNullable();
      t.bigInteger('refusals').notNullable();
      t.primary(['org_id', 'day', 'model', 'mode']);
    });
    for (const [table, period] of [['usage_daily_keys', 'day'], ['usage_monthly_keys', 'month']] as const) {
      await knex.schema.createTable(table, (t) => {
        t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
        t.date(period).notNullable();
        t.text('key_id').notNullable(); // '' = no key (local mode, deleted key)
        t.bigInteger('requests').notNullable();
        t.bigInteger('input_tokens').notNullable();
        t.bigInteger('output_tokens').notNullable();
        t.bigInteger('refusals').notNullable();
        t.primary(['org_id', period, 'key_id']);
      });
    }
    const sums = "count(*), sum(input_tokens), sum(output_tokens), count(*) filter (where refused)";
    await knex.raw(`insert into usage_daily (org_id, day, model, mode, requests, input_tokens, output_tokens, refusals)
      select org_id, (created_at at time zone 'UTC')::date, model, mode, ${sums} from usage_events group by 1, 2, 3, 4`);
    await knex.raw(`insert into usage_daily_keys (org_id, day, key_id, requests, input_tokens, output_tokens, refusals)
      select org_id, (created_at at time zone 'UTC')::date, coalesce(key_id, ''), ${sums} from usage_events group by 1, 2, 3`);
    await knex.raw(`insert into usage_monthly_keys (org_id, month, key_id, requests, input_tokens, output_tokens, refusals)
      select org_id, date_trunc('month', created_at at time zone 'UTC')::date, coalesce(key_id, ''), ${sums} from usage_events group by 1, 2, 3`);
    await knex.raw('update usage_events set rolled = true');
  },
  async down(knex: Knex): Promise<void> {
    for (const table of ['usage_daily', 'usage_daily_keys', 'usage_monthly_keys']) await knex.schema.dropTableIfExists(table);
    await knex.raw('drop index if exists usage_events_unrolled_idx');
    await knex.raw('create index if not exists usage_events_org_id_key_id_created_at_index on usage_events (org_id, key_id, created_at)');
    await knex.raw('create index if not exists usage_events_org_id_created_at_index on usage_events (org_id, created_at)');
    await knex.raw('drop index if exists usage_events_org_created_request_unique');
    await knex.raw('alter table usage_events add constraint usage_events_request_id_unique unique (request_id)');
    await knex.raw("delete from usage_events where state <> 'settled'");
    await knex.schema.alterTable('usage_events', (t) => {
      t.dropChecks(['usage_events_state_check']);
      t.dropColumns('state', 'reserved_tokens', 'expires_at', 'rolled');
    });
    await knex.schema.createTable('usage_monthly', (t) => {
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.date('month').notNullable();
      t.bigInteger('requests').notNullable().defaultTo(0);
      t.bigInteger('input_tokens').notNullable().defaultTo(0);
      t.bigInteger('output_tokens').notNullable().defaultTo(0);
      t.primary(['org_id', 'month']);
    });
    await knex.raw(`
      insert into usage_monthly (org_id, month, requests, input_tokens, output_tokens)
      select org_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*), sum(input_tokens), sum(output_tokens)
        from usage_events group by 1, 2`);
    await knex.schema.dropTableIfExists('org_meters');
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
  },
};
