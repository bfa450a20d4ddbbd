import type { Knex } from 'knex';

/**
 * What a logged question costs the database (issue 13 §6: logging on adds ≤ 10 % to /chat). On the embedded database
 * every statement runs in its one worker thread, shared with every chat's admission and settlement, so per-row work of
 * the log's batch insert is taken from chats. Measured in the worker (BENCHMARKS.md, "Owner's loop"), a 400-row batch
 * spent a fifth of its time in statement triggers that had nothing to do, or did it through dynamic SQL:
 *
 * - The store now writes new questions with `INSERT … ON CONFLICT DO NOTHING` (and updates the rare vote-only row of an
 *   answer rated before its question arrived in a second statement), so the UPDATE triggers — which
 *   `ON CONFLICT DO UPDATE` fires for every statement, with empty transition tables — no longer run per batch.
 * - The two INSERT triggers (0005's `question_groups`, 0007's four per-day summaries through `execute format(…)`, parsed
 *   and planned on every call) become ONE statement trigger with static SQL, planned once per session. It computes
 *   exactly what 0005's and 0007's insert branches computed (every new row counts +1); UPDATE and DELETE keep their
 *   triggers and functions unchanged.
 * - The foreign key `question_log.key_id → api_keys` goes: its per-row check duplicated the insert's own
 *   `exists (… api_keys … revoked_at is null)`, and what its cascade did is done otherwise — a key is never deleted on
 *   its own (deleting a key revokes it, and 0005's `api_keys_owner_loop` deletes its log rows), and an organisation's
 *   deletion deletes its keys and its log rows through `org_id`'s cascade.
 */

const INSERT_FUNCTION = `
  create function question_log_summaries_insert() returns trigger language plpgsql as $fn$
  begin
    -- 0005's question_groups (all-time per normalised question), insert branch.
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

    -- 0007's per-day summaries, insert branch (each new row counts +1).
    insert into question_day_groups as x (org_id, day, key_id, question_hash, total, answered, refused, errors, thumbs_up, thumbs_down, last_seen_at)
    select r.org_id, (r.created_at at time zone 'UTC')::date, coalesce(r.key_id, ''), r.question_hash, count(*),
           count(*) filter (where r.outcome = 'answered'), count(*) filter (where r.outcome = 'refused'), count(*) filter (where r.outcome = 'error'),
           count(*) filter (where r.rating = 'up'), count(*) filter (where r.rating = 'down'), max(r.created_at)
      from new_rows r where r.question is not null group by 1, 2, 3, 4
    on conflict (org_id, day, key_id, question_hash) do update set
      total = x.total + excluded.total, answered = x.answered + excluded.answered, refused = x.refused + excluded.refused, errors = x.errors + excluded.errors,
      thumbs_up = x.thumbs_up + excluded.thumbs_up, thumbs_down = x.thumbs_down + excluded.thumbs_down,
      last_seen_at = greatest(x.last_seen_at, excluded.last_seen_at);

    insert into question_day_gap_pages as x (org_id, question_hash, day, key_id, page, n)
    select r.org_id, r.question_hash, (r.created_at at time zone 'UTC')::date, coalesce(r.key_id, ''), coalesce(r.page_url, ''), count(*)
      from new_rows r where r.question is not null and (r.outcome = 'refused' or r.rating = 'down') group by 1, 2, 3, 4, 5
    on conflict (org_id, question_hash, day, key_id, page) do update set n = x.n + excluded.n;

    insert into question_gap_pages as x (org_id, question_hash, page, n)
    select r.org_id, r.question_hash, coalesce(r.page_url, ''), count(*)
      from new_rows r where r.question is not null and (r.outcome = 'refused' or r.rating = 'down') group by 1, 2, 3
    on conflict (org_id, question_hash, page) do update set n = x.n + excluded.n;

    insert into question_day_votes as x (org_id, day, key_id, up, down)
    select r.org_id, (r.rated_at at time zone 'UTC')::date, coalesce(r.key_id, ''), count(*) filter (where r.rating = 'up'), count(*) filter (where r.rating = 'down')
      from new_rows r where r.rating is not null group by 1, 2, 3
    on conflict (org_id, day, key_id) do update set up = x.up + excluded.up, down = x.down + excluded.down;
    return null;
  end $fn$`;

export const questionLogLeanInserts = {
  name: '0008-question-log-lean-inserts',
  async up(knex: Knex): Promise<void> {
    await knex.raw('drop trigger question_log_groups_insert on question_log');
    await knex.raw('drop trigger question_log_days_insert on question_log');
    await knex.raw(INSERT_FUNCTION);
    await knex.raw('create trigger question_log_summaries_insert after insert on question_log referencing new table as new_rows for each statement execute function question_log_summaries_insert()');
    await knex.raw('alter table question_log drop constraint question_log_key_id_foreign');
  },
  async down(knex: Knex): Promise<void> {
    // Rows of keys that no longer exist (none should: keys are only deleted with their organisation) would block the key.
    await knex.raw('delete from question_log l where l.key_id is not null and not exists (select 1 from api_keys k where k.id = l.key_id)');
    await knex.raw('alter table question_log add constraint question_log_key_id_foreign foreign key (key_id) references api_keys (id) on delete cascade');
    await knex.raw('drop trigger if exists question_log_summaries_insert on question_log');
    await knex.raw('drop function if exists question_log_summaries_insert()');
    await knex.raw('create trigger question_log_groups_insert after insert on question_log referencing new table as new_rows for each statement execute function question_groups_apply()');
    await knex.raw('create trigger question_log_days_insert after insert on question_log referencing new table as new_rows for each statement execute function question_log_days_apply()');
  },
};
