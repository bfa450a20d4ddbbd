/**
 * The chat limiter alone on the embedded database, without HTTP or the engine: `concurrency` clients each admit a chat,
 * wait one turn of the event loop (the answer), settle it without waiting and admit the next — for `seconds` after a
 * 1.5 s warm-up. Prints chats per second and the process's CPU per chat (the server's thread and the PGlite worker's
 * together, from `process.cpuUsage()`), then checks the books (one usage row per admitted chat, none left reserved
 * once settled). A diagnostic for the worker's share of /chat, not a benchmark figure: to compare two trees, copy this
 * file into each and run them alternately under `flock /tmp/kit-heavy.lock`.
 *
 *   npx tsx bench/support/chat-limiter-loop.ts [seconds=4] [concurrency=10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnexDatabase } from '../../adapters/node/knex-database.js';
import { createPgChatLimiter } from '../../adapters/node/pg-chat-limiter.js';
import { load1 } from './load.js';
import { seedInto } from './seed.js';

const seconds = Number(process.argv[2] ?? 4);
const concurrency = Number(process.argv[3] ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'kit-limiter-loop-'));
const db = await createKnexDatabase({ kind: 'pglite', dataDir: join(dir, 'pglite') });
try {
  const org = await seedInto(db, 1, 'business');
  const keyId = ((await db.knex('api_keys').first('id')) as { id: string }).id;
  const limiter = createPgChatLimiter(db.knex);
  const limits = { keyPerMinute: 1e9, sessionPerMinute: 1e9, orgPerMinute: 1e9, monthlyTokens: 1e15 };
  let chats = 0;
  let seq = 0;
  const settlements: Array<Promise<void>> = [];
  const client = async (until: number): Promise<void> => {
    while (performance.now() < until) {
      const now = new Date();
      const requestId = `req_loop_${++seq}`;
      const admission = await limiter.admit({ orgId: org.orgId, keyId, sessionId: null, now, limits, reserveTokens: 2_000, requestId, model: 'extractive', expiresAt: new Date(now.getTime() + 900_000) });
      if (!admission.admitted) throw new Error('refused: the limits are set out of reach');
      await new Promise((resolve) => setImmediate(resolve));
      settlements.push(limiter.settle({ orgId: org.orgId, requestId, admittedAt: now, model: 'extractive', inputTokens: 100, outputTokens: 50, refused: false }));
      chats++;
    }
  };
  const run = (ms: number): Promise<unknown> => Promise.all(Array.from({ length: concurrency }, () => client(performance.now() + ms)));
  await run(1_500);
  const before = chats;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await run(seconds * 1_000);
  const spent = process.cpuUsage(cpu);
  const wall = performance.now() - t0;
  const n = chats - before;
  await Promise.all(settlements);
  const [books] = (await db.knex('usage_events').select(db.knex.raw("count(*)::int as rows, (count(*) filter (where state = 'reserved'))::int as reserved"))) as Array<{ rows: number; reserved: number }>;
  console.log(`${n} chats in ${(wall / 1000).toFixed(1)} s: ${((n / wall) * 1000).toFixed(0)} chats/s, process CPU ${((spent.user + spent.system) / 1000 / n).toFixed(3)} ms per chat; usage rows ${books!.rows} for ${chats} chats, ${books!.reserved} still reserved; load ${load1()}`);
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
