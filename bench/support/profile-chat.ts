/**
 * Where /chat's time goes: the BUILT server (`node --cpu-prof dist/server/main.js`) on PostgreSQL or the embedded
 * PGlite, driven by autocannon in its own process (POST /v1/chat, the chat benchmark's body), then the CPU profile
 * summarised: idle share, self time by package/file and the top functions. A diagnostic, not a benchmark figure.
 *
 *   npx tsx bench/support/profile-chat.ts [pg|pglite] [seconds] [stream|json] [off|redacted|full]
 *
 * The fourth argument sets the organisation's question logging (default off): where logging's cost goes. The PGlite
 * worker thread writes its own profile beside the main thread's (both are summarised).
 *
 * KIT_BENCH_CHAT_LIMITER=noop profiles Kit from source with a no-op chat limiter (`bench/support/kit-limiter-variant.ts`:
 * no statement on the chat path): Kit's own per-chat work without the database's.
 *
 * With 0 seconds it profiles the start alone (spawn → listening, then a clean stop): what a restart spends.
 *
 * Run it under `flock /tmp/kit-heavy.lock`. Needs dist/server/main.js (`npm run build` or `npm run bench -- chat`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnexDatabase } from '../../adapters/node/knex-database.js';
import { startPostgres } from '../../test/support/postgres.js';
import { autocannon, load1, startServer } from './load.js';
import { seedBenchOrg } from './seed.js';
import { KIT_BENCH_ENV, SOURCE_TEXT } from './chat-request.js';

const kind = process.argv[2] === 'pglite' ? 'pglite' : 'pg';
const seconds = Number(process.argv[3] ?? 10);
const stream = process.argv[4] === 'stream';
const logging = (['redacted', 'full'] as const).find((m) => m === process.argv[5]) ?? 'off';
const root = new URL('../..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'kit-profile-'));
// The logging benchmark's question (an address to mask) and page (a query string to drop), whatever the logging mode.
const body = JSON.stringify({
  messages: [{ role: 'user', content: 'How much does the Pro plan cost per month? Mail me at jane@example.org' }],
  sources: [{ url: 'https://shop.example.com/pricing', title: 'Pricing', text: SOURCE_TEXT }],
  stream,
  page_url: 'https://shop.example.com/pricing?utm_source=bench',
  conversation_id: 'cnv_bench',
});

const pg = kind === 'pg' ? await startPostgres() : null;
try {
  const location = pg ? { kind: 'postgres' as const, url: pg.url } : { kind: 'pglite' as const, dataDir: join(work, 'pglite') };
  const org = await seedBenchOrg(location);
  if (logging !== 'off') {
    const db = await createKnexDatabase(location);
    await db.knex('question_logging').insert({ org_id: org.orgId, mode: logging, version: 1, updated_at: new Date() });
    await db.close();
  }
  const profDir = join(work, 'prof');
  const env: Record<string, string> = { ...KIT_BENCH_ENV };
  if (pg) env.DATABASE_URL = pg.url;
  else env.KIT_DATA_DIR = join(work, 'pglite');
  // KIT_BENCH_CHAT_LIMITER=noop: Kit from source without a statement on the chat path (bench/support/kit-limiter-variant.ts).
  const noop = process.env.KIT_BENCH_CHAT_LIMITER === 'noop';
  if (noop) env.KIT_BENCH_CHAT_LIMITER = 'noop';
  const entry = noop ? ['--import', 'tsx', join(root, 'bench/support/kit-limiter-variant.ts')] : [join(root, 'dist/server/main.js')];
  const server = await startServer(['--cpu-prof', '--cpu-prof-dir', profDir, ...entry], env, join(work, 'server.log'), /listening on (http:\/\/[^/"\s]+)/);
  const opts = { url: `${server.url}/v1/chat`, method: 'POST' as const, connections: 10, body, headers: { 'content-type': 'application/json', authorization: `Bearer ${org.secrets[0]}` } };
  if (seconds > 0) {
    await autocannon({ ...opts, seconds: 2 });
    const r = await autocannon({ ...opts, seconds });
    console.log(`${kind}${stream ? ' streamed' : ''}, logging ${logging}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}; load ${load1()}`);
  } else {
    const started = /"startup_ms":(\d+)/.exec(readFileSync(join(work, 'server.log'), 'utf8'));
    console.log(`${kind}: start to listening ${started?.[1] ?? '?'} ms (the server's startup_ms); load ${load1()}`);
  }
  await server.stop();
  for (const file of readdirSync(profDir)) {
    type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
    const profile = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const label = (id: number): string => {
      const n = byId.get(id)!;
      return `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^file:\/\//, '').replace(root, '').split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
    };
    /** The JavaScript callers (4 frames up) of a native function's samples. */
    const callers = (name: string): Map<string, number> => {
      const out = new Map<string, number>();
      for (const [id, us] of self ?? []) {
        if (byId.get(id)!.callFrame.functionName !== name) continue;
        const chain: string[] = [];
        for (let p = parent.get(id); p !== undefined && chain.length < Number(process.env.CALLER_DEPTH ?? 4); p = parent.get(p)) chain.push(label(p));
        const key = chain.join(' < ');
        out.set(key, (out.get(key) ?? 0) + us);
      }
      return out;
    };
    /** The source module of a line of a webpack bundle in dist/ (its `;// ./path` markers), or the bundle's own name. */
    const modules = new Map<string, Array<[number, string]>>();
    const moduleOf = (url: string, line: number): string => {
      if (!url.includes('/dist/')) return url;
      let marks = modules.get(url);
      if (!marks) {
        marks = [];
        try {
          readFileSync(new URL(url), 'utf8').split('\n').forEach((text, i) => {
            const m = /^;\/\/ (\.\/\S+)/.exec(text);
            if (m) marks!.push([i, m[1]!]);
          });
        } catch {
          // not a file: keep the bundle's name
        }
        modules.set(url, marks);
      }
      let found = url.replace(root, '');
      for (const [at, name] of marks) {
        if (at > line) break;
        found = name;
      }
      return found;
    };
    const self = new Map<number, number>();
    profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    let total = 0;
    const byFile = new Map<string, number>();
    const byFn = new Map<string, number>();
    for (const [id, us] of self) {
      total += us;
      const n = byId.get(id)!;
      const url = n.callFrame.url.replace(/^file:\/\//, '').replace(root, '');
      const where = url === '' ? `(${n.callFrame.functionName || 'native'})` : url.includes('node_modules/') ? url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : moduleOf(n.callFrame.url, n.callFrame.lineNumber);
      byFile.set(where, (byFile.get(where) ?? 0) + us);
      const fn = `${n.callFrame.functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
      byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    }
    const pct = (us: number) => `${((100 * us) / total).toFixed(1)} %`;
    console.log(`\nprofile ${file}: ${(total / 1e6).toFixed(1)} s sampled`);
    console.log('by file/package:');
    for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`  ${pct(v).padStart(7)}  ${k}`);
    console.log('top functions (self):');
    for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${pct(v).padStart(7)}  ${k}`);
    for (const name of ['writev', 'writeString', 'writeUtf8String', 'writeBuffer']) {
      const c = callers(name);
      if (c.size === 0) continue;
      console.log(`callers of ${name}:`);
      for (const [k, v] of [...c].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`  ${pct(v).padStart(7)}  ${k}`);
    }
  }
} finally {
  await pg?.stop();
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
}
process.exit(0);
