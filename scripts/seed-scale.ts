/**
 * `npm run seed:scale`: fills a database with an owner's worst case for the reports (issue 12 §3) — one organisation
 * with 10,000 keys and 1,000,000 usage rows this calendar month — so GET /v1/usage and GET /v1/keys can be measured
 * at scale. Target: DATABASE_URL (PostgreSQL) or KIT_DATA_DIR (the embedded PGlite; default ./.kit-data), as the server
 * reads them. Options: --rows N (default 1000000), --keys N (default 10000), --email, --password.
 *
 * The rows are generated inside the database (generate_series) in chunks of 100,000, spread uniformly over the month
 * so far; keys are drawn log-uniformly (key i with probability ∝ 1/i: a few keys carry most traffic, most keys
 * little, as an agency's per-site keys do); 80 % extractive / 20 % another model, 70 % remote / 30 % local, 10 %
 * refusals. Rows are written already rolled up, with their rollup sums (`usage_daily`, `usage_daily_keys`, `usage_monthly_keys`) and the month's meter, as the
 * server's background rollup would leave them. Prints the owner's login and timings.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { createArgon2PasswordHasher } from '../adapters/node/argon2-password-hasher.js';
import { createKnexDatabase, type DatabaseLocation, type KnexDatabase } from '../adapters/node/knex-database.js';
import { migrateToLatest } from '../adapters/node/migrations/index.js';
import { ensureUsagePartitions } from '../adapters/node/migrations/0004-usage-partitions.js';
import { newId } from '../server/ids.js';

/** What was seeded. */
export interface ScaleSeed {
  readonly orgId: string;
  readonly email: string;
  readonly password: string;
  readonly keys: number;
  readonly rows: number;
  readonly ms: { readonly keys: number; readonly rows: number; readonly rollup: number };
}

const CHUNK = 100_000;

/** Seeds `rows` usage rows and `keys` keys into one new organisation of an open, migrated database. */
export async function seedScale(db: KnexDatabase, options: { rows: number; keys: number; email?: string; password?: string; now?: Date; log?: (line: string) => void }): Promise<ScaleSeed> {
  const knex = db.knex;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const orgId = newId('org');
  const userId = newId('usr');
  const email = options.email ?? `owner-${orgId.slice(4, 12).toLowerCase()}@scale.example`;
  const password = options.password ?? 'scale test password';
  await knex('users').insert({ id: userId, email, name: 'Scale owner', password_hash: await createArgon2PasswordHasher().hash(password), created_at: now });
  await knex('organizations').insert({ id: orgId, name: 'Scale org', tier: 'business', created_at: now });
  await knex('memberships').insert({ org_id: orgId, user_id: userId, role: 'owner', joined_at: now });

  let t = performance.now();
  // Keys: ids key_<org>_<n>, created one second apart; kind alternates; hashes are unique and match no real key.
  await knex.raw(
    `insert into api_keys (id, org_id, kind, name, prefix, last4, value, hash, created_by, created_at)
     select ? || lpad(g::text, 6, '0'), ?, case when g % 2 = 0 then 'publishable' else 'secret' end, 'Site ' || g,
            case when g % 2 = 0 then 'kit_pub_' else 'kit_sec_' end || substr(md5(g::text), 1, 4), substr(md5(g::text), 5, 4),
            case when g % 2 = 0 then 'kit_pub_seed' || md5(? || g::text) else null end, md5(? || 'hash' || g::text), ?,
            cast(? as timestamptz) - (cast(? as int) - g) * interval '1 second'
       from generate_series(1, cast(? as int)) g`,
    [`key_${orgId.slice(4, 12)}_`, orgId, orgId, orgId, userId, monthStart, options.keys, options.keys],
  );
  const keysMs = performance.now() - t;
  log(`${options.keys} keys in ${keysMs.toFixed(0)} ms`);

  await ensureUsagePartitions(knex, now, 2, monthStart);
  t = performance.now();
  const seconds = Math.max(1, Math.floor((now.getTime() - monthStart.getTime()) / 1000));
  for (let done = 0; done < options.rows; done += CHUNK) {
    const n = Math.min(CHUNK, options.rows - done);
    await knex.raw(
      `insert into usage_events (org_id, key_id, mode, model, input_tokens, output_tokens, refused, request_id, created_at, state, rolled)
       select ?, ? || lpad(least(cast(? as int), floor(power(cast(? as float8), random()))::int)::text, 6, '0'),
              case when random() < 0.7 then 'remote' else 'local' end,
              case when random() < 0.8 then 'extractive' else 'qwen2.5-7b-instruct' end,
              case when r.refused then 0 else 200 + floor(random() * 800)::int end,
              case when r.refused then 0 else 20 + floor(random() * 200)::int end,
              r.refused, 'req_seed_' || md5(? || g::text), cast(? as timestamptz) + floor(random() * cast(? as float8)) * interval '1 second', 'settled', true
         from generate_series(cast(? as int), cast(? as int)) g, lateral (select random() < 0.1 as refused, g as gg) r`,
      [orgId, `key_${orgId.slice(4, 12)}_`, options.keys, options.keys, orgId, monthStart, seconds, done + 1, done + n],
    );
    log(`${done + n} usage rows (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
  const rowsMs = performance.now() - t;
  t = performance.now();
  const sums = 'count(*), sum(input_tokens), sum(output_tokens), count(*) filter (where refused)';
  await knex.raw(`insert into usage_daily (org_id, day, model, mode, requests, input_tokens, output_tokens, refusals)
     select org_id, (created_at at time zone 'UTC')::date, model, mode, ${sums} from usage_events where org_id = ? group by 1, 2, 3, 4`, [orgId]);
  await knex.raw(`insert into usage_daily_keys (org_id, day, key_id, requests, input_tokens, output_tokens, refusals)
     select org_id, (created_at at time zone 'UTC')::date, coalesce(key_id, ''), ${sums} from usage_events where org_id = ? group by 1, 2, 3`, [orgId]);
  await knex.raw(`insert into usage_monthly_keys (org_id, month, key_id, requests, input_tokens, output_tokens, refusals)
     select org_id, date_trunc('month', created_at at time zone 'UTC')::date, coalesce(key_id, ''), ${sums} from usage_events where org_id = ? group by 1, 2, 3`, [orgId]);
  await knex.raw(
    `insert into org_meters (org_id, month, used, reserved, window_start, window_count)
     select org_id, cast(? as date), sum(input_tokens + output_tokens), 0, 'epoch', 0 from usage_events where org_id = ? group by org_id`,
    [monthStart.toISOString().slice(0, 10), orgId],
  );
  await knex.raw('analyze usage_events');
  for (const table of ['usage_daily', 'usage_daily_keys', 'usage_monthly_keys']) await knex.raw(`analyze ${table}`);
  await knex.raw('analyze api_keys');
  const rollupMs = performance.now() - t;
  log(`rollups and statistics in ${rollupMs.toFixed(0)} ms`);
  return { orgId, email, password, keys: options.keys, rows: options.rows, ms: { keys: keysMs, rows: rowsMs, rollup: rollupMs } };
}

/** The database the server would open from the same environment. */
export function locationFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseLocation {
  return env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dataDir: env.KIT_DATA_DIR ?? './.kit-data' };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, keys: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } } });
  const location = locationFromEnv();
  const db = await createKnexDatabase(location);
  try {
    await migrateToLatest(db.knex);
    const seed = await seedScale(db, {
      rows: Number(values.rows ?? 1_000_000),
      keys: Number(values.keys ?? 10_000),
      ...(values.email ? { email: values.email } : {}),
      ...(values.password ? { password: values.password } : {}),
      log: (line) => console.log(line),
    });
    console.log(`Seeded ${location.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${location.dataDir}`}: organization ${seed.orgId}, owner ${seed.email} / "${seed.password}".`);
  } finally {
    await db.close();
  }
}
