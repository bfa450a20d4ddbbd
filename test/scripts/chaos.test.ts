import { expect } from 'chai';
import knexFactory from 'knex';
import { freshDataDir, killDuringLoad, loginBurst, postgresRestart, quotaBurst, type ChaosDatabase } from '../../scripts/chaos/scenarios.js';
import { testPostgres } from '../support/databases.js';
import { postgresAvailable, startPostgres } from '../support/postgres.js';

/**
 * Cases of `npm run chaos` whose fix belongs to another workstream and is not merged here yet: registered (so the
 * suite says what is missing) but skipped until the fix lands; `npm run chaos` runs and reports them regardless.
 */
const AWAITING: Partial<Record<'quota' | 'outage', string>> = {};
const when = (name: keyof typeof AWAITING, title: string) => (AWAITING[name] ? it.skip(`${title} (${AWAITING[name]})`) : it(title, cases[name]));
const cases: Record<keyof typeof AWAITING, () => Promise<void>> = { quota: async () => undefined, outage: async () => undefined };

const requirePostgres = postgresAvailable() || process.env.KIT_REQUIRE_POSTGRES === '1';
let counter = 0;
async function freshPostgres(): Promise<ChaosDatabase> {
  const base = (await testPostgres()).url;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  const name = `kit_chaos_test_${process.pid}_${counter++}`;
  try {
    await admin.raw(`create database ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { kind: 'postgres', url: url.href };
}

// The fast part of `npm run chaos` (scripts/chaos.ts): one kill per database instead of five, the same checks. Its
// one-process-per-KIT_DATA_DIR scenario is not repeated here: test/server/data-dir-lock.test.ts makes the same checks
// (a second server refused at once, naming the directory and the holder; recovery after SIGKILL) and more.
describe('npm run chaos (fast part)', function () {
  this.timeout(300_000);
  const targets: Array<['pglite' | 'postgres', () => Promise<{ db: ChaosDatabase; cleanup(): void }>]> = [
    ['pglite', async () => {
      const dir = freshDataDir('test');
      return { db: { kind: 'pglite', dataDir: dir.dataDir }, cleanup: dir.remove };
    }],
  ];
  if (requirePostgres) targets.push(['postgres', async () => ({ db: await freshPostgres(), cleanup: () => undefined })]);

  for (const [kind, target] of targets) {
    describe(`on ${kind}`, () => {
      it('loses no acknowledged write, leaves no orphan, meters each acknowledged chat once when SIGKILLed during a mixed load', async () => {
        const { db, cleanup } = await target();
        try {
          const result = await killDuringLoad({ database: db, kills: 1, loadMs: [1_500, 2_500], concurrency: 6, seed: 7 });
          expect(result.problems).to.deep.equal([]);
          expect(result.ok).to.equal(true);
          const acknowledged = result.figures.acknowledged as { signups: number; keys: number; chats: number };
          expect(acknowledged.signups + acknowledged.keys + acknowledged.chats, 'the load wrote something to check').to.be.greaterThan(0);
        } finally {
          cleanup();
        }
      });

      it('checks exactly the failed-login limits of 40 parallel logins for one email and 45 from one address', async () => {
        const { db, cleanup } = await target();
        try {
          const result = await loginBurst({ database: db });
          expect(result.problems).to.deep.equal([]);
          expect(result.figures).to.deep.equal({
            one_email_40_parallel: { checked_401: 10, refused_429: 30, limit: 10 },
            one_ip_45_parallel: { checked_401: 20, refused_429: 25, limit: 20 },
          });
        } finally {
          cleanup();
        }
      });

      if (kind === 'postgres') {
        cases.quota = async () => {
          const { db } = await target();
          const result = await quotaBurst({ database: db });
          expect(result.problems).to.deep.equal([]);
        };
        when('quota', 'keeps the monthly quota within one reservation under 40 concurrent chats');
        cases.outage = async () => {
          // A cluster of its own: restarting the shared one would cut the pools of every other suite.
          const pg = await startPostgres();
          try {
            const result = await postgresRestart({ url: pg.url, restart: (ms) => pg.restart(ms) });
            expect(result.problems).to.deep.equal([]);
          } finally {
            await pg.stop();
          }
        };
        when('outage', 'answers 503 while PostgreSQL restarts and recovers without a restart');
      }
    });
  }
});
