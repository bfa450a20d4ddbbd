import type { Knex } from 'knex';

/**
 * A question the engine ran for but found no answer to in the pages (core's extractive engine: "I couldn't find that
 * on this page.", or "The closest it comes: …") was logged `answered`, so it never reached the owner's coverage gaps —
 * yet it is exactly content the site lacks. It gets its own outcome, `not_found`:
 *
 * - `question_log.outcome` accepts `not_found` (the check constraint; `question_daily(_totals).outcome` have none);
 * - `question_groups` (0005) and `question_day_groups` (0007) count `not_found` per group;
 * - a gap is refused + not found + thumbs down: `question_groups.gaps` (a stored generated column, dropped and added
 *   again with its partial index: PostgreSQL 15 cannot change a generation expression) and the store's per-day score;
 * - the gap pages (`question_gap_pages`, `question_day_gap_pages`, 0007) count the pages of `not_found` rows too.
 *
 * The three trigger functions that keep the summaries — 0005's `question_groups_apply` (UPDATE, DELETE), 0007's
 * `question_log_days_apply` (UPDATE, DELETE) and 0008's `question_log_summaries_insert` (INSERT) — are replaced by the
 * same functions with the `not_found` counts (`create or replace`: the triggers keep pointing at them). They are built
 * below from one text each, with or without `not_found`, so `down` restores exactly what 0005/0007/0008 made.
 *
 * Rows logged before this migration have no `not_found` (the constraint forbade it): the new counts start at 0 and
 * every summary stays equal to its query on the log. `down` turns `not_found` back into `answered` (what it was logged
 * as before) — in the log through the UPDATE triggers (so the summaries follow), in the daily counts by merging rows.
 */

const OUTCOMES_BEFORE = "('answered', 'refused', 'error')";
const OUTCOMES_AFTER = "('answered', 'not_found', 'refused', 'error')";

/** `text` when the functions count `not_found`, else nothing. */
const when = (nf: boolean, text: string): string => (nf ? text : '');
/** Which rows a coverage gap's pages count. */
const gapRow = (nf: boolean, r: string): string => (nf ? `(${r}outcome in ('refused', 'not_found') or ${r}rating = 'down')` : `(${r}outcome = 'refused' or ${r}rating = 'down')`);

/** 0005's `question_groups_apply` (its UPDATE and DELETE triggers remain; 0008 took its INSERT trigger). */
const groupsApply = (nf: boolean): string => `
      create or replace function question_groups_apply() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then
          with d as (
            select org_id, question_hash, count(*) as total,
                   count(*) filter (where outcome = 'answered') as answered,${when(nf, `
                   count(*) filter (where outcome = 'not_found') as not_found,`)}
                   count(*) filter (where outcome = 'refused') as refused,
                   count(*) filter (where outcome = 'error') as errors,
                   count(*) filter (where rating = 'up') as up,
                   count(*) filter (where rating = 'down') as down
              from old_rows where question is not null group by 1, 2)
          update question_groups g set total = g.total - d.total, answered = g.answered - d.answered,${when(nf, ' not_found = g.not_found - d.not_found,')}
                 refused = g.refused - d.refused, errors = g.errors - d.errors,
                 thumbs_up = g.thumbs_up - d.up, thumbs_down = g.thumbs_down - d.down
            from d where g.org_id = d.org_id and g.question_hash = d.question_hash;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          insert into question_groups as g (org_id, question_hash, total, answered,${when(nf, ' not_found,')} refused, errors, thumbs_up, thumbs_down, last_seen_at, example_id, example)
          select distinct on (org_id, question_hash) org_id, question_hash,
                 count(*) over w, count(*) filter (where outcome = 'answered') over w,${when(nf, " count(*) filter (where outcome = 'not_found') over w,")} count(*) filter (where outcome = 'refused') over w,
                 count(*) filter (where outcome = 'error') over w, count(*) filter (where rating = 'up') over w,
                 count(*) filter (where rating = 'down') over w, created_at, id, question
            from new_rows where question is not null
          window w as (partition by org_id, question_hash)
          order by org_id, question_hash, created_at desc, id desc
          on conflict (org_id, question_hash) do update set
            total = g.total + excluded.total, answered = g.answered + excluded.answered,${when(nf, ' not_found = g.not_found + excluded.not_found,')} refused = g.refused + excluded.refused,
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
      end $$`;

// 0007's per-day summaries, as 0007 builds its function (see there), with or without `not_found`.
const DAY = "(r.created_at at time zone 'UTC')::date";

interface Summary {
  readonly table: string;
  readonly keys: ReadonlyArray<readonly [string, string]>;
  readonly sums: ReadonlyArray<readonly [string, string]>;
  readonly where: string;
  readonly newest?: readonly [string, string, string];
}

const signed = (cond: string) => `sum(case when ${cond} then r.s else 0 end)`;
const summaries = (nf: boolean): readonly Summary[] => [
  {
    table: 'question_day_groups',
    keys: [['org_id', 'r.org_id'], ['day', DAY], ['key_id', "coalesce(r.key_id, '')"], ['question_hash', 'r.question_hash']],
    sums: [['total', 'sum(r.s)'], ['answered', signed("r.outcome = 'answered'")], ...(nf ? [['not_found', signed("r.outcome = 'not_found'")] as const] : []),
      ['refused', signed("r.outcome = 'refused'")], ['errors', signed("r.outcome = 'error'")],
      ['thumbs_up', signed("r.rating = 'up'")], ['thumbs_down', signed("r.rating = 'down'")]],
    where: 'r.question is not null',
    newest: ['last_seen_at', 'max(r.created_at) filter (where r.s > 0)', 'greatest(x.last_seen_at, excluded.last_seen_at)'],
  },
  {
    table: 'question_day_gap_pages',
    keys: [['org_id', 'r.org_id'], ['question_hash', 'r.question_hash'], ['day', DAY], ['key_id', "coalesce(r.key_id, '')"], ['page', "coalesce(r.page_url, '')"]],
    sums: [['n', 'sum(r.s)']],
    where: `r.question is not null and ${gapRow(nf, 'r.')}`,
  },
  {
    table: 'question_gap_pages',
    keys: [['org_id', 'r.org_id'], ['question_hash', 'r.question_hash'], ['page', "coalesce(r.page_url, '')"]],
    sums: [['n', 'sum(r.s)']],
    where: `r.question is not null and ${gapRow(nf, 'r.')}`,
  },
  {
    table: 'question_day_votes',
    keys: [['org_id', 'r.org_id'], ['day', "(r.rated_at at time zone 'UTC')::date"], ['key_id', "coalesce(r.key_id, '')"]],
    sums: [['up', signed("r.rating = 'up'")], ['down', signed("r.rating = 'down'")]],
    where: 'r.rating is not null',
  },
];

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

/** 0007's `question_log_days_apply` (its UPDATE and DELETE triggers remain; 0008 took its INSERT trigger). */
const daysApply = (nf: boolean): string => `
      create or replace function question_log_days_apply() returns trigger language plpgsql as $fn$
      declare
        cols constant text := 'org_id, key_id, created_at, page_url, outcome, question, question_hash, rating, rated_at';
        src text;
      begin
        src := case tg_op
          when 'INSERT' then format('select %s, 1 as s from new_rows', cols)
          when 'DELETE' then format('select %s, -1 as s from old_rows', cols)
          else format('select %s, 1 as s from new_rows union all select %s, -1 as s from old_rows', cols, cols) end;
${summaries(nf).map(applySql).join('\n')}
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
      end $fn$`;

/** 0008's `question_log_summaries_insert` (static SQL, the one INSERT trigger). */
const summariesInsert = (nf: boolean): string => `
  create or replace function question_log_summaries_insert() returns trigger language plpgsql as $fn$
  begin
    -- 0005's question_groups (all-time per normalised question), insert branch.
    insert into question_groups as g (org_id, question_hash, total, answered,${when(nf, ' not_found,')} refused, errors, thumbs_up, thumbs_down, last_seen_at, example_id, example)
    select distinct on (org_id, question_hash) org_id, question_hash,
           count(*) over w, count(*) filter (where outcome = 'answered') over w,${when(nf, " count(*) filter (where outcome = 'not_found') over w,")} count(*) filter (where outcome = 'refused') over w,
           count(*) filter (where outcome = 'error') over w, count(*) filter (where rating = 'up') over w,
           count(*) filter (where rating = 'down') over w, created_at, id, question
      from new_rows where question is not null
    window w as (partition by org_id, question_hash)
    order by org_id, question_hash, created_at desc, id desc
    on conflict (org_id, question_hash) do update set
      total = g.total + excluded.total, answered = g.answered + excluded.answered,${when(nf, ' not_found = g.not_found + excluded.not_found,')} refused = g.refused + excluded.refused,
      errors = g.errors + excluded.errors, thumbs_up = g.thumbs_up + excluded.thumbs_up, thumbs_down = g.thumbs_down + excluded.thumbs_down,
      last_seen_at = greatest(g.last_seen_at, excluded.last_seen_at),
      example_id = case when g.last_seen_at is null or excluded.last_seen_at >= g.last_seen_at then excluded.example_id else g.example_id end,
      example = case when g.last_seen_at is null or excluded.last_seen_at >= g.last_seen_at then excluded.example else g.example end;

    -- 0007's per-day summaries, insert branch (each new row counts +1).
    insert into question_day_groups as x (org_id, day, key_id, question_hash, total, answered,${when(nf, ' not_found,')} refused, errors, thumbs_up, thumbs_down, last_seen_at)
    select r.org_id, (r.created_at at time zone 'UTC')::date, coalesce(r.key_id, ''), r.question_hash, count(*),
           count(*) filter (where r.outcome = 'answered'),${when(nf, " count(*) filter (where r.outcome = 'not_found'),")} count(*) filter (where r.outcome = 'refused'), count(*) filter (where r.outcome = 'error'),
           count(*) filter (where r.rating = 'up'), count(*) filter (where r.rating = 'down'), max(r.created_at)
      from new_rows r where r.question is not null group by 1, 2, 3, 4
    on conflict (org_id, day, key_id, question_hash) do update set
      total = x.total + excluded.total, answered = x.answered + excluded.answered,${when(nf, ' not_found = x.not_found + excluded.not_found,')} refused = x.refused + excluded.refused, errors = x.errors + excluded.errors,
      thumbs_up = x.thumbs_up + excluded.thumbs_up, thumbs_down = x.thumbs_down + excluded.thumbs_down,
      last_seen_at = greatest(x.last_seen_at, excluded.last_seen_at);

    insert into question_day_gap_pages as x (org_id, question_hash, day, key_id, page, n)
    select r.org_id, r.question_hash, (r.created_at at time zone 'UTC')::date, coalesce(r.key_id, ''), coalesce(r.page_url, ''), count(*)
      from new_rows r where r.question is not null and ${gapRow(nf, 'r.')} group by 1, 2, 3, 4, 5
    on conflict (org_id, question_hash, day, key_id, page) do update set n = x.n + excluded.n;

    insert into question_gap_pages as x (org_id, question_hash, page, n)
    select r.org_id, r.question_hash, coalesce(r.page_url, ''), count(*)
      from new_rows r where r.question is not null and ${gapRow(nf, 'r.')} group by 1, 2, 3
    on conflict (org_id, question_hash, page) do update set n = x.n + excluded.n;

    insert into question_day_votes as x (org_id, day, key_id, up, down)
    select r.org_id, (r.rated_at at time zone 'UTC')::date, coalesce(r.key_id, ''), count(*) filter (where r.rating = 'up'), count(*) filter (where r.rating = 'down')
      from new_rows r where r.rating is not null group by 1, 2, 3
    on conflict (org_id, day, key_id) do update set up = x.up + excluded.up, down = x.down + excluded.down;
    return null;
  end $fn$`;

/** `question_groups.gaps` and its index, counting `not_found` or not. */
async function gapsColumn(knex: Knex, nf: boolean): Promise<void> {
  // Dropping the column drops its partial index.
  await knex.raw('alter table question_groups drop column gaps');
  await knex.raw(`alter table question_groups add column gaps integer generated always as (refused + ${nf ? 'not_found + ' : ''}thumbs_down) stored`);
  await knex.raw('create index question_groups_gaps on question_groups (org_id, gaps desc, question_hash) where gaps > 0');
}

async function outcomeCheck(knex: Knex, outcomes: string): Promise<void> {
  await knex.raw('alter table question_log drop constraint question_log_outcome_check');
  await knex.raw(`alter table question_log add constraint question_log_outcome_check check (outcome is null or outcome in ${outcomes})`);
}

export const notFoundOutcome = {
  name: '0009-not-found-outcome',
  async up(knex: Knex): Promise<void> {
    await outcomeCheck(knex, OUTCOMES_AFTER);
    await knex.raw('alter table question_groups add column not_found integer not null default 0');
    await gapsColumn(knex, true);
    await knex.raw('alter table question_day_groups add column not_found integer not null default 0');
    await knex.raw(groupsApply(true));
    await knex.raw(daysApply(true));
    await knex.raw(summariesInsert(true));
  },
  async down(knex: Knex): Promise<void> {
    // Back to `answered`, as these questions were logged before: the log through its UPDATE triggers (the summaries
    // follow while they still count not_found), the daily counts merged into their `answered` rows.
    await knex.raw("update question_log set outcome = 'answered' where outcome = 'not_found'");
    for (const [table, keys] of [['question_daily', 'org_id, day, key_id, page, mode'], ['question_daily_totals', 'org_id, day, key_id, mode']] as const) {
      await knex.raw(`insert into ${table} as t (${keys}, outcome, questions)
                      select ${keys}, 'answered', questions from ${table} where outcome = 'not_found'
                      on conflict (${keys}, outcome) do update set questions = t.questions + excluded.questions`);
      await knex.raw(`delete from ${table} where outcome = 'not_found'`);
    }
    await knex.raw(summariesInsert(false));
    await knex.raw(daysApply(false));
    await knex.raw(groupsApply(false));
    await knex.raw('alter table question_day_groups drop column not_found');
    await gapsColumn(knex, false);
    await knex.raw('alter table question_groups drop column not_found');
    await outcomeCheck(knex, OUTCOMES_BEFORE);
  },
};
