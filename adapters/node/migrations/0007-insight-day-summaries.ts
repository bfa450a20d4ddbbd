import type { Knex } from 'knex';

/**
 * Insights read per-day summaries instead of the question log (issue 13 §6): at a million logged questions a date
 * range, a key or the daily chart grouped the log itself (hundreds of ms). Five summaries, each kept exactly equal to
 * a query on the log:
 *
 * - `question_day_groups`: per UTC day (of `created_at`), key and normalised question — total, answered, refused,
 *   errors, thumbs up / down, newest `created_at`. Top questions and coverage gaps over a range or key sum its rows.
 * - `question_day_gap_pages` / `question_gap_pages`: per day (and all-time) the pages where a question was refused or
 *   voted down — a coverage gap's pages.
 * - `question_day_votes`: votes per UTC day of `rated_at` and key (every vote, with or without a logged question).
 * - `question_daily_totals`: `question_daily` without its page column (written in the same statement as
 *   `question_daily`, see the store's `addCounts`): the daily chart reads days × modes × outcomes rows, not × pages.
 *
 * The first four are kept by statement-level triggers on `question_log` (one aggregate upsert per statement, like
 * 0005's `question_groups`), so every way a row comes or goes — a batch of logged questions, a vote, the retention
 * purge, a conversation's or a key's deletion, an organisation's deletion — adjusts them in the same transaction.
 * A key's deletion (0005's `api_keys_owner_loop`) now also deletes its `question_daily_totals`.
 * `null` key ids and page URLs are stored as '' (primary keys cannot hold null).
 */

const DAY = "(r.created_at at time zone 'UTC')::date";

/** 0005's `api_keys_owner_loop`, with (`totals`) or without the delete of `question_daily_totals`. */
const keyTrigger = (totals: boolean): string => `
  create or replace function api_keys_owner_loop() returns trigger language plpgsql as $$
  begin
    if tg_op = 'UPDATE' then
      if old.revoked_at is null and new.revoked_at is not null then
        delete from question_log where org_id = new.org_id and key_id = new.id;
        delete from question_daily where org_id = new.org_id and key_id = new.id;${totals ? '\n        delete from question_daily_totals where org_id = new.org_id and key_id = new.id;' : ''}
        delete from assistant_settings where org_id = new.org_id and scope = new.id;
      end if;
    elsif new.rotated_from is not null then
      insert into assistant_settings (org_id, scope, key_id, settings, version, updated_at, updated_by)
      select org_id, new.id, new.id, settings, 1, updated_at, updated_by from assistant_settings
       where org_id = new.org_id and scope = new.rotated_from
      on conflict do nothing;
    end if;
    return null;
  end $$`;

/** One summary the trigger keeps: its table, its grouping columns (name and expression over the signed rows `r`), its
 * summed columns, and which rows it counts. */
interface Summary {
  readonly table: string;
  readonly keys: ReadonlyArray<readonly [string, string]>;
  readonly sums: ReadonlyArray<readonly [string, string]>;
  readonly where: string;
  /** Extra columns set only where a row comes (name, aggregate, merge with the stored value). */
  readonly newest?: readonly [string, string, string];
}

const signed = (cond: string) => `sum(case when ${cond} then r.s else 0 end)`;
const SUMMARIES: readonly Summary[] = [
  {
    table: 'question_day_groups',
    keys: [['org_id', 'r.org_id'], ['day', DAY], ['key_id', "coalesce(r.key_id, '')"], ['question_hash', 'r.question_hash']],
    sums: [['total', 'sum(r.s)'], ['answered', signed("r.outcome = 'answered'")], ['refused', signed("r.outcome = 'refused'")], ['errors', signed("r.outcome = 'error'")],
      ['thumbs_up', signed("r.rating = 'up'")], ['thumbs_down', signed("r.rating = 'down'")]],
    where: 'r.question is not null',
    newest: ['last_seen_at', 'max(r.created_at) filter (where r.s > 0)', 'greatest(x.last_seen_at, excluded.last_seen_at)'],
  },
  {
    table: 'question_day_gap_pages',
    keys: [['org_id', 'r.org_id'], ['question_hash', 'r.question_hash'], ['day', DAY], ['key_id', "coalesce(r.key_id, '')"], ['page', "coalesce(r.page_url, '')"]],
    sums: [['n', 'sum(r.s)']],
    where: "r.question is not null and (r.outcome = 'refused' or r.rating = 'down')",
  },
  {
    table: 'question_gap_pages',
    keys: [['org_id', 'r.org_id'], ['question_hash', 'r.question_hash'], ['page', "coalesce(r.page_url, '')"]],
    sums: [['n', 'sum(r.s)']],
    where: "r.question is not null and (r.outcome = 'refused' or r.rating = 'down')",
  },
  {
    table: 'question_day_votes',
    keys: [['org_id', 'r.org_id'], ['day', "(r.rated_at at time zone 'UTC')::date"], ['key_id', "coalesce(r.key_id, '')"]],
    sums: [['up', signed("r.rating = 'up'")], ['down', signed("r.rating = 'down'")]],
    where: 'r.rating is not null',
  },
];

/**
 * The two statements that apply the signed rows `%s` to one summary: groups with a new row are upserted (a group may
 * be new); groups with only removed rows are updated, never inserted (an organisation's deletion removes the summary
 * first, and a negative row must not be created).
 */
function applySql(m: Summary): string {
  const keyNames = m.keys.map(([k]) => k);
  const cols = [...keyNames, ...m.sums.map(([c]) => c), ...(m.newest ? [m.newest[0]] : [])];
  const select = [...m.keys.map(([k, e]) => `${e} as ${k}`), ...m.sums.map(([c, e]) => `${e} as ${c}`)];
  const groupBy = keyNames.map((_, i) => i + 1).join(', ');
  const upsert = `insert into ${m.table} as x (${cols.join(', ')})
          select ${[...select, ...(m.newest ? [`${m.newest[1]} as ${m.newest[0]}`] : [])].join(', ')}
            from (%s) r where ${m.where} group by ${groupBy} having max(r.s) > 0
          on conflict (${keyNames.join(', ')}) do update set ${[...m.sums.map(([c]) => `${c} = x.${c} + excluded.${c}`), ...(m.newest ? [`${m.newest[0]} = ${m.newest[2]}`] : [])].join(', ')}`;
  const update = `update ${m.table} x set ${m.sums.map(([c]) => `${c} = x.${c} + d.${c}`).join(', ')}
            from (select ${select.join(', ')} from (%s) r where ${m.where} group by ${groupBy} having max(r.s) < 0) d
           where ${keyNames.map((k) => `x.${k} = d.${k}`).join(' and ')}`;
  return `        if tg_op <> 'DELETE' then execute format($q$${upsert}$q$, src); end if;
        if tg_op <> 'INSERT' then execute format($q$${update}$q$, src); end if;`;
}

export const insightDaySummaries = {
  name: '0007-insight-day-summaries',
  async up(knex: Knex): Promise<void> {
    const org = (t: Knex.CreateTableBuilder) => t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    await knex.schema.createTable('question_day_groups', (t) => {
      org(t);
      t.date('day').notNullable();
      t.text('key_id').notNullable();
      t.text('question_hash').notNullable();
      t.integer('total').notNullable();
      t.integer('answered').notNullable();
      t.integer('refused').notNullable();
      t.integer('errors').notNullable();
      t.integer('thumbs_up').notNullable();
      t.integer('thumbs_down').notNullable();
      t.timestamp('last_seen_at', { useTz: true });
      t.primary(['org_id', 'day', 'key_id', 'question_hash']);
    });
    await knex.schema.createTable('question_day_gap_pages', (t) => {
      org(t);
      t.text('question_hash').notNullable();
      t.date('day').notNullable();
      t.text('key_id').notNullable();
      t.text('page').notNullable();
      t.integer('n').notNullable();
      t.primary(['org_id', 'question_hash', 'day', 'key_id', 'page']);
    });
    await knex.schema.createTable('question_gap_pages', (t) => {
      org(t);
      t.text('question_hash').notNullable();
      t.text('page').notNullable();
      t.integer('n').notNullable();
      t.primary(['org_id', 'question_hash', 'page']);
    });
    await knex.schema.createTable('question_day_votes', (t) => {
      org(t);
      t.date('day').notNullable();
      t.text('key_id').notNullable();
      t.integer('up').notNullable();
      t.integer('down').notNullable();
      t.primary(['org_id', 'day', 'key_id']);
    });
    await knex.schema.createTable('question_daily_totals', (t) => {
      org(t);
      t.date('day').notNullable();
      t.text('key_id').notNullable();
      t.text('mode').notNullable();
      t.text('outcome').notNullable();
      t.integer('questions').notNullable();
      t.primary(['org_id', 'day', 'key_id', 'mode', 'outcome']);
    });

    // Backfill from what is already stored (rows logged before this migration).
    await knex.raw(`insert into question_daily_totals (org_id, day, key_id, mode, outcome, questions)
                    select org_id, day, key_id, mode, outcome, sum(questions) from question_daily group by 1, 2, 3, 4, 5`);
    await knex.raw(`insert into question_day_groups (org_id, day, key_id, question_hash, total, answered, refused, errors, thumbs_up, thumbs_down, last_seen_at)
                    select r.org_id, ${DAY}, coalesce(r.key_id, ''), r.question_hash, count(*), count(*) filter (where r.outcome = 'answered'),
                           count(*) filter (where r.outcome = 'refused'), count(*) filter (where r.outcome = 'error'),
                           count(*) filter (where r.rating = 'up'), count(*) filter (where r.rating = 'down'), max(r.created_at)
                      from question_log r where r.question is not null group by 1, 2, 3, 4`);
    await knex.raw(`insert into question_day_gap_pages (org_id, question_hash, day, key_id, page, n)
                    select r.org_id, r.question_hash, ${DAY}, coalesce(r.key_id, ''), coalesce(r.page_url, ''), count(*)
                      from question_log r where r.question is not null and (r.outcome = 'refused' or r.rating = 'down') group by 1, 2, 3, 4, 5`);
    await knex.raw(`insert into question_gap_pages (org_id, question_hash, page, n)
                    select org_id, question_hash, page, sum(n) from question_day_gap_pages group by 1, 2, 3`);
    await knex.raw(`insert into question_day_votes (org_id, day, key_id, up, down)
                    select r.org_id, (r.rated_at at time zone 'UTC')::date, coalesce(r.key_id, ''), count(*) filter (where r.rating = 'up'), count(*) filter (where r.rating = 'down')
                      from question_log r where r.rating is not null group by 1, 2, 3`);

    // One function for the three events. The changed rows are the statement's transition tables, signed: +1 for new
    // rows, -1 for old ones (an UPDATE is both), so one aggregate per summary applies any statement.
    await knex.raw(`
      create function question_log_days_apply() returns trigger language plpgsql as $fn$
      declare
        cols constant text := 'org_id, key_id, created_at, page_url, outcome, question, question_hash, rating, rated_at';
        src text;
      begin
        src := case tg_op
          when 'INSERT' then format('select %s, 1 as s from new_rows', cols)
          when 'DELETE' then format('select %s, -1 as s from old_rows', cols)
          else format('select %s, 1 as s from new_rows union all select %s, -1 as s from old_rows', cols, cols) end;
${SUMMARIES.map(applySql).join('\n')}
        if tg_op in ('DELETE', 'UPDATE') then
          -- Emptied summaries go; a day whose newest question was removed takes the newest one left.
          delete from question_day_groups g using (select distinct org_id, (created_at at time zone 'UTC')::date as day, coalesce(key_id, '') as key_id, question_hash
                                                     from old_rows where question is not null) d
           where g.org_id = d.org_id and g.day = d.day and g.key_id = d.key_id and g.question_hash = d.question_hash and g.total <= 0;
          update question_day_groups g
             set last_seen_at = (select max(q.created_at) from question_log q
                                  where q.org_id = g.org_id and q.question_hash = g.question_hash and q.question is not null
                                    and coalesce(q.key_id, '') = g.key_id
                                    and q.created_at >= g.day::timestamp at time zone 'UTC' and q.created_at < (g.day + 1)::timestamp at time zone 'UTC')
            from (select distinct org_id, (created_at at time zone 'UTC')::date as day, coalesce(key_id, '') as key_id, question_hash, created_at
                    from old_rows where question is not null) d
           where g.org_id = d.org_id and g.day = d.day and g.key_id = d.key_id and g.question_hash = d.question_hash and g.last_seen_at = d.created_at;
          delete from question_day_gap_pages p using (select distinct org_id, question_hash from old_rows where question is not null) d
           where p.org_id = d.org_id and p.question_hash = d.question_hash and p.n <= 0;
          delete from question_gap_pages p using (select distinct org_id, question_hash from old_rows where question is not null) d
           where p.org_id = d.org_id and p.question_hash = d.question_hash and p.n <= 0;
          delete from question_day_votes v using (select distinct org_id from old_rows where rating is not null) d
           where v.org_id = d.org_id and v.up <= 0 and v.down <= 0;
        end if;
        return null;
      end $fn$`);
    await knex.raw('create trigger question_log_days_insert after insert on question_log referencing new table as new_rows for each statement execute function question_log_days_apply()');
    await knex.raw('create trigger question_log_days_update after update on question_log referencing old table as old_rows new table as new_rows for each statement execute function question_log_days_apply()');
    await knex.raw('create trigger question_log_days_delete after delete on question_log referencing old table as old_rows for each statement execute function question_log_days_apply()');

    // 0005's key trigger, plus the totals of the key's counts.
    await knex.raw(keyTrigger(true));
  },
  async down(knex: Knex): Promise<void> {
    for (const op of ['insert', 'update', 'delete']) await knex.raw(`drop trigger if exists question_log_days_${op} on question_log`);
    await knex.raw('drop function if exists question_log_days_apply()');
    for (const table of ['question_daily_totals', 'question_day_votes', 'question_gap_pages', 'question_day_gap_pages', 'question_day_groups']) {
      await knex.schema.dropTableIfExists(table);
    }
    await knex.raw(keyTrigger(false));
  },
};
