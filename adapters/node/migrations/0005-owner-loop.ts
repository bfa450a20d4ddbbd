import type { Knex } from 'knex';

/**
 * The owner's loop (issue 13): assistant settings (organisation defaults and per-key overrides, versioned for
 * If-Match), the organisation's question-logging choice, the question log itself, daily counts (kept with logging
 * off too: no text), a summary per normalised question kept by statement triggers (so "top questions" and "coverage
 * gaps" read a few index entries instead of grouping a million rows), and the schedule of background jobs (shared by
 * every replica, so a restart neither skips nor repeats a run).
 *
 * Deleting a key revokes it (`revoked_at`); a trigger then deletes the key's log rows, counts and settings override.
 * Rotating a key copies its settings override to the successor.
 */
export const ownerLoop = {
  name: '0005-owner-loop',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('assistant_settings', (t) => {
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      // '*' for the organisation's defaults, else the key id the overrides belong to.
      t.text('scope').notNullable();
      t.text('key_id').references('id').inTable('api_keys').onDelete('CASCADE');
      t.jsonb('settings').notNullable().defaultTo('{}');
      t.integer('version').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.text('updated_by').references('id').inTable('users').onDelete('SET NULL');
      t.primary(['org_id', 'scope']);
      t.check("(scope = '*' and key_id is null) or scope = key_id", [], 'assistant_settings_scope_check');
    });

    await knex.schema.createTable('question_logging', (t) => {
      t.text('org_id').primary().references('id').inTable('organizations').onDelete('CASCADE');
      t.text('mode').notNullable().defaultTo('off');
      t.integer('retention_days').notNullable().defaultTo(30);
      t.boolean('keep_query_string').notNullable().defaultTo(false);
      t.text('notice');
      t.integer('version').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.text('updated_by').references('id').inTable('users').onDelete('SET NULL');
      t.check("mode in ('off', 'redacted', 'full')", [], 'question_logging_mode_check');
      t.check('retention_days between 1 and 365', [], 'question_logging_retention_check');
    });

    // One row per answer (message). A row without `question` is a visitor's vote on an answer whose question was
    // not (or not yet) logged: feedback and the logged question meet on (org_id, message_id), whichever comes first.
    await knex.schema.createTable('question_log', (t) => {
      t.text('id').primary();
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.text('key_id').references('id').inTable('api_keys').onDelete('CASCADE');
      t.text('message_id').notNullable();
      t.text('conversation_id').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.text('page_url');
      t.text('mode');
      t.text('model');
      t.text('outcome');
      t.text('error_code');
      t.text('question');
      t.text('question_hash');
      t.text('answer');
      t.jsonb('citations').notNullable().defaultTo('[]');
      t.integer('latency_ms');
      t.text('source');
      t.text('rating');
      t.text('comment');
      t.timestamp('rated_at', { useTz: true });
      t.unique(['org_id', 'message_id']);
      t.check("mode is null or mode in ('local', 'remote', 'extractive')", [], 'question_log_mode_check');
      t.check("outcome is null or outcome in ('answered', 'refused', 'error')", [], 'question_log_outcome_check');
      t.check("rating is null or rating in ('up', 'down')", [], 'question_log_rating_check');
      t.check('question is null or (question_hash is not null and outcome is not null and mode is not null)', [], 'question_log_logged_check');
    });
    await knex.raw("alter table question_log add column search tsvector generated always as (to_tsvector('simple', coalesce(question, ''))) stored");
    await knex.raw('create index question_log_recent on question_log (org_id, created_at desc, id desc) where question is not null');
    await knex.raw('create index question_log_outcome on question_log (org_id, outcome, created_at desc, id desc) where question is not null');
    await knex.raw('create index question_log_key on question_log (org_id, key_id, created_at desc, id desc) where question is not null');
    await knex.raw('create index question_log_group on question_log (org_id, question_hash, created_at desc) where question is not null');
    await knex.raw('create index question_log_conversation on question_log (org_id, conversation_id)');
    await knex.raw('create index question_log_rated on question_log (org_id, rated_at) where rating is not null');
    await knex.raw('create index question_log_purge on question_log (created_at)');
    await knex.raw('create index question_log_search on question_log using gin (search)');

    await knex.schema.createTable('question_daily', (t) => {
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.date('day').notNullable();
      t.text('key_id').notNullable().defaultTo('');
      t.text('page').notNullable().defaultTo('');
      t.text('mode').notNullable();
      t.text('outcome').notNullable();
      t.integer('questions').notNullable();
      t.primary(['org_id', 'day', 'key_id', 'page', 'mode', 'outcome']);
    });

    await knex.schema.createTable('question_groups', (t) => {
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.text('question_hash').notNullable();
      t.integer('total').notNullable().defaultTo(0);
      t.integer('answered').notNullable().defaultTo(0);
      t.integer('refused').notNullable().defaultTo(0);
      t.integer('errors').notNullable().defaultTo(0);
      t.integer('thumbs_up').notNullable().defaultTo(0);
      t.integer('thumbs_down').notNullable().defaultTo(0);
      t.timestamp('last_seen_at', { useTz: true });
      t.text('example_id');
      t.text('example');
      t.primary(['org_id', 'question_hash']);
    });
    await knex.raw('alter table question_groups add column gaps integer generated always as (refused + thumbs_down) stored');
    await knex.raw('create index question_groups_top on question_groups (org_id, total desc, question_hash)');
    await knex.raw('create index question_groups_gaps on question_groups (org_id, gaps desc, question_hash) where gaps > 0');

    // Statement-level triggers: one aggregate upsert per statement, whatever the number of rows (a batch of logged
    // questions, a purge of a day's rows, a conversation's deletion).
    await knex.raw(`
      create function question_groups_apply() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then
          with d as (
            select org_id, question_hash, count(*) as total,
                   count(*) filter (where outcome = 'answered') as answered,
                   count(*) filter (where outcome = 'refused') as refused,
                   count(*) filter (where outcome = 'error') as errors,
                   count(*) filter (where rating = 'up') as up,
                   count(*) filter (where rating = 'down') as down
              from old_rows where question is not null group by 1, 2)
          update question_groups g set total = g.total - d.total, answered = g.answered - d.answered,
                 refused = g.refused - d.refused, errors = g.errors - d.errors,
                 thumbs_up = g.thumbs_up - d.up, thumbs_down = g.thumbs_down - d.down
            from d where g.org_id = d.org_id and g.question_hash = d.question_hash;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          insert into question_groups as g (org_id, question_hash, total, answered, refused, errors, thumbs_up, thumbs_down, last_seen_at, example_id, example)
          select distinct on (org_id, question_hash) org_id, question_hash,
                 count(*) over w, count(*) filter (where outcome = 'answered') over w, count(*) filter (where outcome = 'refused') over w,
                 count(*) filter (where outcome = 'error') over w, count(*) filter (where rating = 'up') over w,
                 count(*) filter (where rating = 'down') over w, created_at, id, question
            from new_rows where question is not null
          window w as (partition by org_id, question_hash)
          order by org_id, question_hash, created_at desc, id desc
          on conflict (org_id, question_hash) do update set
            total = g.total + excluded.total, answered = g.answered + excluded.answered, refused = g.refused + excluded.refused,
            errors = g.errors + excluded.errors, thumbs_up = g.thumbs_up + excluded.thumbs_up, thumbs_down = g.thumbs_down + excluded.thumbs_down,
            last_seen_at = greatest(g.last_seen_at, excluded.last_seen_at),
            example_id = case when g.last_seen_at is null or excluded.last_seen_at >= g.last_seen_at then excluded.example_id else g.example_id end,
            example = case when g.last_seen_at is null or excluded.last_seen_at >= g.last_seen_at then excluded.example else g.example end;
        end if;
        if tg_op in ('DELETE', 'UPDATE') then
          delete from question_groups g using (select distinct org_id, question_hash from old_rows where question is not null) d
           where g.org_id = d.org_id and g.question_hash = d.question_hash and g.total <= 0;
          -- A deleted row must not live on as its group's example text: take the newest remaining one.
          update question_groups g set example_id = l.id, example = l.question, last_seen_at = l.created_at
            from (select distinct org_id, question_hash, id from old_rows where question is not null) d,
                 lateral (select q.id, q.question, q.created_at from question_log q
                           where q.org_id = d.org_id and q.question_hash = d.question_hash and q.question is not null
                           order by q.created_at desc, q.id desc limit 1) l
           where g.org_id = d.org_id and g.question_hash = d.question_hash and g.example_id = d.id;
        end if;
        return null;
      end $$`);
    await knex.raw('create trigger question_log_groups_insert after insert on question_log referencing new table as new_rows for each statement execute function question_groups_apply()');
    await knex.raw('create trigger question_log_groups_update after update on question_log referencing old table as old_rows new table as new_rows for each statement execute function question_groups_apply()');
    await knex.raw('create trigger question_log_groups_delete after delete on question_log referencing old table as old_rows for each statement execute function question_groups_apply()');

    // Deleting a key (DELETE /keys/{id} sets revoked_at) deletes what was logged under it; rotating copies its overrides.
    await knex.raw(`
      create function api_keys_owner_loop() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          if old.revoked_at is null and new.revoked_at is not null then
            delete from question_log where org_id = new.org_id and key_id = new.id;
            delete from question_daily where org_id = new.org_id and key_id = new.id;
            delete from assistant_settings where org_id = new.org_id and scope = new.id;
          end if;
        elsif new.rotated_from is not null then
          insert into assistant_settings (org_id, scope, key_id, settings, version, updated_at, updated_by)
          select org_id, new.id, new.id, settings, 1, updated_at, updated_by from assistant_settings
           where org_id = new.org_id and scope = new.rotated_from
          on conflict do nothing;
        end if;
        return null;
      end $$`);
    await knex.raw('create trigger api_keys_revoked_owner_loop after update of revoked_at on api_keys for each row execute function api_keys_owner_loop()');
    await knex.raw('create trigger api_keys_rotated_owner_loop after insert on api_keys for each row execute function api_keys_owner_loop()');

    await knex.schema.createTable('scheduled_jobs', (t) => {
      t.text('name').primary();
      t.timestamp('next_run_at', { useTz: true }).notNullable();
      t.timestamp('last_started_at', { useTz: true });
      t.timestamp('last_finished_at', { useTz: true });
      t.text('last_result');
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw('drop trigger if exists api_keys_revoked_owner_loop on api_keys');
    await knex.raw('drop trigger if exists api_keys_rotated_owner_loop on api_keys');
    await knex.raw('drop function if exists api_keys_owner_loop()');
    for (const table of ['scheduled_jobs', 'question_groups', 'question_daily', 'question_log', 'question_logging', 'assistant_settings']) {
      await knex.schema.dropTableIfExists(table);
    }
    await knex.raw('drop function if exists question_groups_apply()');
  },
};
