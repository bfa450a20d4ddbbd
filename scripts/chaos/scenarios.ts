/**
 * The chaos scenarios of issue #11 ("keep the proof in the project"), each against real server processes on a real
 * database (the embedded PGlite in a data directory, or PostgreSQL 15), on loopback only. Each returns figures and
 * a verdict; `scripts/chaos.ts` prints them and `test/scripts/chaos.test.ts` runs the fast ones in `npm test`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnexDatabase } from '../../adapters/node/knex-database.js';
import { EndlessUpstream } from '../../test/fakes/endless-upstream.js';
import { rng } from '../eval/rng.js';
import { checkLedger, ledgerHolds, type LedgerCheck } from './checks.js';
import { emptyLedger, startLoad } from './load.js';
import { startServer, tryStartServer, type ServerProcess } from './server.js';
import { SlowUpstream } from './upstream.js';

/** Where a scenario's server keeps its data. */
export type ChaosDatabase = { readonly kind: 'pglite'; readonly dataDir: string } | { readonly kind: 'postgres'; readonly url: string };

/** A scenario's outcome: `ok`, the figures it measured (printed as they are), and what went wrong. */
export interface ScenarioResult {
  readonly name: string;
  readonly ok: boolean;
  readonly figures: Record<string, unknown>;
  readonly problems: readonly string[];
}

/** Shared by every server a scenario starts: generous limits (the load must not be refused), a fixed JWT secret. */
const BASE_ENV = Object.freeze({
  KIT_JWT_SECRET: 'chaos-jwt-secret-chaos-jwt-secret-0123456789',
  KIT_SIGNUPS_PER_IP_PER_HOUR: '100000',
  KIT_LOGIN_MAX_PER_IP: '100000',
  KIT_ALTCHA_MAX_NUMBER: '1000',
  KIT_PLAN_LIMITS: JSON.stringify({ free: { requests_per_minute: 100_000, session_requests_per_minute: 100_000, org_requests_per_minute: 1_000_000, max_keys: 100_000, monthly_tokens: 1_000_000_000 } }),
});

export function databaseEnv(db: ChaosDatabase): Record<string, string> {
  return db.kind === 'pglite' ? { KIT_DATA_DIR: db.dataDir } : { DATABASE_URL: db.url, KIT_DB_POOL_MAX: '10' };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function signup(url: string, label: string): Promise<{ token: string; orgId: string; email: string }> {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@chaos.test`;
  const res = await fetch(`${url}/v1/auth/signup`, json({ email, password: 'chaos password 1' }));
  const body = (await res.json()) as { token: string; organization: { id: string } };
  if (res.status !== 201) throw new Error(`signup answered ${res.status} ${JSON.stringify(body)}`);
  return { token: body.token, orgId: body.organization.id, email };
}

async function secretKey(url: string, token: string): Promise<string> {
  const res = await fetch(`${url}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'secret', name: 'chaos' }) });
  if (res.status !== 201) throw new Error(`POST /keys answered ${res.status}`);
  return ((await res.json()) as { secret: string }).secret;
}

/** Options of the SIGKILL scenario. */
export interface KillOptions {
  readonly database: ChaosDatabase;
  readonly kills: number;
  /** Load before each kill: a random duration in this range (ms). */
  readonly loadMs: readonly [number, number];
  readonly concurrency: number;
  readonly seed: number;
  readonly dist?: boolean;
  readonly log?: (line: string) => void;
}

/**
 * SIGKILLs the server `kills` times during a mixed write load (signups, keys, chats), restarting it each time, and
 * after each kill checks the database against every write the server had acknowledged: all present, no orphan rows,
 * usage rows = acknowledged chats (+ at most the chats in flight), monthly totals = sum of rows. Ends with a clean
 * restart and SIGTERM.
 */
export async function killDuringLoad(options: KillOptions): Promise<ScenarioResult> {
  const random = rng(options.seed);
  const ledger = emptyLedger();
  const problems: string[] = [];
  const checks: LedgerCheck[] = [];
  const env = { ...BASE_ENV, ...databaseEnv(options.database) };
  let survived = 0;
  for (let kill = 1; kill <= options.kills; kill++) {
    const server = await startServer({ env, ...(options.dist ? { dist: true } : {}) });
    const load = startLoad({ url: server.url, ledger, random, concurrency: options.concurrency, label: `kill${kill}` });
    const [min, max] = options.loadMs;
    await sleep(min + random() * (max - min));
    const before = load.completed();
    server.child.kill('SIGKILL');
    await server.exited;
    await load.stop();
    const db = await createKnexDatabase(options.database.kind === 'pglite' ? { kind: 'pglite', dataDir: options.database.dataDir } : { kind: 'postgres', url: options.database.url, poolMax: 2 });
    try {
      const check = await checkLedger(db.knex, ledger);
      checks.push(check);
      if (ledgerHolds(check)) survived += 1;
      else problems.push(`kill ${kill}: ${JSON.stringify(check)}`);
      options.log?.(`  kill ${kill}/${options.kills} on ${options.database.kind}: ${before} answers before the kill; acknowledged so far ${check.checked.signups} signups, ${check.checked.keys} keys, ${check.checked.chats} chats; lost ${check.lostSignups + check.lostKeys + check.lostChats}, orphans ${check.orphans}, usage rows of unacknowledged chats ${check.extraChats} (≤ ${check.unacknowledgedChats} in flight), monthly mismatches ${check.monthlyMismatches}`);
    } finally {
      await db.close();
    }
  }
  const last = await startServer({ env, ...(options.dist ? { dist: true } : {}) });
  const ready = await fetch(`${last.url}/readyz`);
  if (ready.status !== 200) problems.push(`after the last kill /readyz answered ${ready.status}`);
  const code = await last.stop('SIGTERM');
  if (code !== 0) problems.push(`SIGTERM after the kills exited ${code}`);
  const final = checks.at(-1);
  return {
    name: `SIGKILL ×${options.kills} during signups, keys and chats (${options.database.kind})`,
    ok: problems.length === 0 && survived === options.kills,
    figures: {
      kills: options.kills,
      kills_survived: survived,
      acknowledged: final?.checked,
      lost_writes: checks.reduce((n, c) => n + c.lostSignups + c.lostKeys + c.lostChats, 0),
      orphan_rows: final?.orphans,
      unacknowledged: ledger.unacknowledged,
      usage_rows_of_unacknowledged_chats: final?.extraChats,
      monthly_total_mismatches: final?.monthlyMismatches,
      refused: ledger.refused,
    },
    problems,
  };
}

/** Options of the failed-login scenario. */
export interface LoginBurstOptions {
  readonly database: ChaosDatabase;
  readonly perEmail?: number;
  readonly perIp?: number;
  readonly dist?: boolean;
}

/**
 * Issue #11.4 with exact counts: 40 parallel wrong-password logins for one email (from 40 addresses) must get exactly
 * `perEmail` password checks (401) and 429 for the rest; 45 parallel logins from one address (45 emails) exactly
 * `perIp`. A 401 is only ever answered after a password check, so the 401s count the checks.
 */
export async function loginBurst(options: LoginBurstOptions): Promise<ScenarioResult> {
  const perEmail = options.perEmail ?? 10;
  const perIp = options.perIp ?? 20;
  const server = await startServer({
    env: { ...BASE_ENV, ...databaseEnv(options.database), KIT_LOGIN_MAX_PER_EMAIL: String(perEmail), KIT_LOGIN_MAX_PER_IP: String(perIp), KIT_TRUST_PROXY: '1' },
    ...(options.dist ? { dist: true } : {}),
  });
  try {
    const account = await signup(server.url, 'login');
    const nonce = Math.floor(Math.random() * 200);
    const login = (email: string, ip: string) =>
      fetch(`${server.url}/v1/auth/login`, { ...json({ email, password: 'wrong password!' }), headers: { 'content-type': 'application/json', 'x-forwarded-for': ip } }).then((r) => r.status);
    const byEmail = await Promise.all(Array.from({ length: 40 }, (_, i) => login(account.email, `198.18.${nonce}.${i + 1}`)));
    const byIp = await Promise.all(Array.from({ length: 45 }, (_, i) => login(`nobody-${nonce}-${i}-${Date.now()}@chaos.test`, `198.19.${nonce}.1`)));
    const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;
    const figures = {
      one_email_40_parallel: { checked_401: count(byEmail, 401), refused_429: count(byEmail, 429), limit: perEmail },
      one_ip_45_parallel: { checked_401: count(byIp, 401), refused_429: count(byIp, 429), limit: perIp },
    };
    const problems: string[] = [];
    if (figures.one_email_40_parallel.checked_401 !== perEmail || figures.one_email_40_parallel.refused_429 !== 40 - perEmail) problems.push(`one email: ${JSON.stringify(figures.one_email_40_parallel)}`);
    if (figures.one_ip_45_parallel.checked_401 !== perIp || figures.one_ip_45_parallel.refused_429 !== 45 - perIp) problems.push(`one address: ${JSON.stringify(figures.one_ip_45_parallel)}`);
    return { name: `failed-login limits under parallel bursts (${options.database.kind})`, ok: problems.length === 0, figures, problems };
  } finally {
    await server.stop('SIGKILL');
  }
}

/**
 * Issue #11.3 (the `embedded` workstream's fix): a second process on the same KIT_DATA_DIR must exit non-zero at
 * once, naming the directory and the holder's PID; after the holder is SIGKILLed, the next start recovers the lock.
 */
export async function dataDirLock(options: { readonly dataDir: string; readonly dist?: boolean }): Promise<ScenarioResult> {
  const env = { ...BASE_ENV, KIT_DATA_DIR: options.dataDir };
  const problems: string[] = [];
  const holder = await startServer({ env, ...(options.dist ? { dist: true } : {}) });
  let second: ServerProcess | null = null;
  const figures: Record<string, unknown> = { holder_pid: holder.pid };
  try {
    const outcome = await tryStartServer({ env, timeoutMs: 60_000, ...(options.dist ? { dist: true } : {}) });
    if (outcome.ok) {
      second = outcome.server;
      problems.push('a second server started on the same data directory');
      figures.second = 'started';
    } else {
      figures.second = { exit_code: outcome.code, ms: outcome.ms };
      if (outcome.code === 0) problems.push('the second process exited 0');
      if (outcome.ms > 10_000) problems.push(`the second process took ${outcome.ms} ms to give up`);
      if (!outcome.output.includes(options.dataDir)) problems.push('its message does not name the data directory');
      if (!outcome.output.includes(String(holder.pid))) problems.push("its message does not name the holder's PID");
    }
    holder.child.kill('SIGKILL');
    await holder.exited;
    const after = await tryStartServer({ env, timeoutMs: 120_000, ...(options.dist ? { dist: true } : {}) });
    figures.after_sigkill = after.ok ? 'started' : { exit_code: after.code };
    if (!after.ok) problems.push(`after SIGKILL of the holder the next start failed (${after.code}): ${after.output.slice(-500)}`);
    else {
      const res = await fetch(`${after.server.url}/v1/auth/signup`, json({ email: `lock-${Date.now()}@chaos.test`, password: 'chaos password 1' }));
      if (res.status !== 201) problems.push(`signup after recovery answered ${res.status}`);
      await after.server.stop('SIGTERM');
    }
  } finally {
    await second?.stop('SIGKILL');
    await holder.stop('SIGKILL');
  }
  return { name: 'one process per KIT_DATA_DIR (pglite)', ok: problems.length === 0, figures, problems };
}

/**
 * Issue #11.1 (the `chatpath` workstream's fix): one free organisation, 4 secret keys, 40 concurrent chats against a
 * slow upstream that honours max_tokens, with a monthly quota that fits only some of them. The month's metered total
 * may exceed the quota by at most one request's worst case (prompt + output cap).
 */
export async function quotaBurst(options: { readonly database: ChaosDatabase; readonly quota?: number; readonly requests?: number; readonly dist?: boolean }): Promise<ScenarioResult> {
  const quota = options.quota ?? 20_000;
  const requests = options.requests ?? 40;
  const upstream = new SlowUpstream(1_000);
  const upstreamUrl = await upstream.start();
  const server = await startServer({
    env: {
      ...BASE_ENV,
      ...databaseEnv(options.database),
      KIT_INFERENCE_URL: upstreamUrl,
      KIT_INFERENCE_MODEL: 'slow',
      KIT_PLAN_LIMITS: JSON.stringify({ free: { requests_per_minute: 100_000, monthly_tokens: quota } }),
    },
    ...(options.dist ? { dist: true } : {}),
  });
  try {
    const account = await signup(server.url, 'quota');
    const keys = await Promise.all([1, 2, 3, 4].map(() => secretKey(server.url, account.token)));
    const text = 'The Pro plan costs 20 dollars per month and includes unlimited projects. '.repeat(55); // ≈ 4,000 characters
    const statuses = await Promise.all(
      Array.from({ length: requests }, (_, i) =>
        fetch(`${server.url}/v1/chat`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys[i % keys.length]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ stream: false, messages: [{ role: 'user', content: 'How much does the Pro plan cost per month?' }], sources: [{ url: 'https://shop.example/pricing', title: 'Pricing', text }] }),
        }).then(async (r) => (await r.arrayBuffer(), r.status)),
      ),
    );
    const usage = (await (await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${account.token}` } })).json()) as { total: { requests: number; input_tokens: number; output_tokens: number } };
    const metered = usage.total.input_tokens + usage.total.output_tokens;
    const reservation = Math.max(0, ...upstream.calls.map((c) => c.promptTokens + c.maxTokens));
    const figures = {
      requests,
      answered_200: statuses.filter((s) => s === 200).length,
      refused_quota_429: statuses.filter((s) => s === 429).length,
      other: statuses.filter((s) => s !== 200 && s !== 429),
      quota,
      metered,
      overshoot: Math.max(0, metered - quota),
      overshoot_ratio: Math.round((metered / quota) * 100) / 100,
      one_reservation: reservation,
    };
    const problems: string[] = [];
    if (figures.overshoot > reservation) problems.push(`metered ${metered} against a quota of ${quota}: overshoot ${figures.overshoot} > one reservation ${reservation}`);
    if (figures.answered_200 === 0) problems.push('no chat was answered at all');
    return { name: `monthly quota under 40 concurrent chats (${options.database.kind})`, ok: problems.length === 0, figures, problems };
  } finally {
    await server.stop('SIGKILL');
    await upstream.stop();
  }
}

/**
 * Issue #11.7 (the `embedded` workstream's fix): PostgreSQL restarted under load. While it is down, /chat and
 * /auth/login answer 503 `service_unavailable` with Retry-After — never 500 — and once it is back the same server
 * process answers again, without a restart.
 */
export async function postgresRestart(options: { readonly url: string; readonly restart: (downMs: number) => Promise<void>; readonly downMs?: number; readonly dist?: boolean }): Promise<ScenarioResult> {
  const downMs = options.downMs ?? 3_000;
  const server = await startServer({ env: { ...BASE_ENV, DATABASE_URL: options.url, KIT_DB_POOL_MAX: '5' }, ...(options.dist ? { dist: true } : {}) });
  const samples: Array<{ t: number; route: string; status: number; code?: string; retryAfter: string | null }> = [];
  let probing = true;
  try {
    const account = await signup(server.url, 'outage');
    const key = await secretKey(server.url, account.token);
    const probe = async (route: string, init: RequestInit) => {
      try {
        const res = await fetch(`${server.url}/v1${route}`, { ...init, signal: AbortSignal.timeout(20_000) });
        const text = await res.text();
        let code: string | undefined;
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        } catch {
          code = undefined;
        }
        samples.push({ t: Date.now(), route, status: res.status, ...(code ? { code } : {}), retryAfter: res.headers.get('retry-after') });
      } catch {
        samples.push({ t: Date.now(), route, status: 0, retryAfter: null });
      }
    };
    const loops = [
      (async () => {
        while (probing) {
          await probe('/chat', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ stream: false, messages: [{ role: 'user', content: 'How much does the Pro plan cost?' }], sources: [{ url: 'https://shop.example/p', title: 'Pricing', text: 'The Pro plan costs 20 dollars per month.' }] }) });
          await sleep(50);
        }
      })(),
      (async () => {
        while (probing) {
          await probe('/auth/login', json({ email: `nobody-${Date.now()}@chaos.test`, password: 'wrong password' }));
          await sleep(100);
        }
      })(),
    ];
    await sleep(1_000);
    const down = Date.now();
    await options.restart(downMs);
    const up = Date.now();
    // Recovery: a /chat answered 200 after the database came back, within 15 s.
    const deadline = up + 15_000;
    while (Date.now() < deadline && !samples.some((s) => s.t > up && s.route === '/chat' && s.status === 200)) await sleep(100);
    await sleep(500);
    probing = false;
    await Promise.all(loops);
    const during = samples.filter((s) => s.t >= down && s.t <= up + 200);
    const recovered = samples.find((s) => s.t > up && s.route === '/chat' && s.status === 200);
    const statuses: Record<string, number> = {};
    for (const s of during) statuses[`${s.route} ${s.status}${s.code ? ` ${s.code}` : ''}`] = (statuses[`${s.route} ${s.status}${s.code ? ` ${s.code}` : ''}`] ?? 0) + 1;
    const figures = {
      down_ms: up - down,
      answers_while_down: statuses,
      recovered_after_ms: recovered ? recovered.t - up : null,
      same_process: server.child.exitCode === null,
    };
    const problems: string[] = [];
    // The window is measured from outside (pg_ctl stop and start take time), so an answer the database really gave at
    // its edges is fine: a chat answered (200) or a wrong password refused (401). Anything else must be a 503.
    const answeredByDatabase = (s: (typeof during)[number]) => s.status === 200 || (s.route === '/auth/login' && s.status === 401 && s.code === 'unauthenticated');
    const bad = during.filter((s) => s.status !== 0 && !answeredByDatabase(s) && !(s.status === 503 && s.code === 'service_unavailable' && s.retryAfter));
    if (bad.length > 0) problems.push(`${bad.length} answers while the database was down were not 503 service_unavailable with Retry-After: ${JSON.stringify(bad.slice(0, 3))}`);
    if (!during.some((s) => s.status === 503)) problems.push('no 503 was answered while the database was down');
    if (!recovered) problems.push('the server did not answer /chat again within 15 s of the database coming back');
    if (!figures.same_process) problems.push('the server process exited');
    return { name: 'PostgreSQL restarted under load (postgres)', ok: problems.length === 0, figures, problems };
  } finally {
    probing = false;
    await server.stop('SIGKILL');
  }
}

/** A fresh PGlite data directory for a scenario (removed by the returned function). */
export function freshDataDir(label: string): { dataDir: string; remove(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), `kit-chaos-${label}-`));
  return { dataDir, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** Resident memory of a process in MB (Linux /proc), or null elsewhere. */
function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * Issue #11.6: `clients` connections that send POST /chat and never read a byte, against a loopback upstream that
 * ignores max_tokens and streams forever. Every stream must be cut within the write-stall bound (plus the time its
 * socket buffers take to fill): the upstream hung up on, one usage row each, no MaxListenersExceededWarning, memory
 * back near where it started.
 */
export async function unreadStreams(options: { readonly database: ChaosDatabase; readonly clients?: number; readonly stallMs?: number; readonly dist?: boolean }): Promise<ScenarioResult> {
  const clients = options.clients ?? 200;
  const stallMs = options.stallMs ?? 5_000;
  const upstream = new EndlessUpstream();
  const upstreamUrl = await upstream.start();
  const server = await startServer({
    env: { ...BASE_ENV, ...databaseEnv(options.database), KIT_INFERENCE_URL: upstreamUrl, KIT_INFERENCE_MODEL: 'endless', KIT_SSE_WRITE_STALL_MS: String(stallMs) },
    ...(options.dist ? { dist: true } : {}),
  });
  const sockets: Socket[] = [];
  try {
    const account = await signup(server.url, 'stall');
    const key = await secretKey(server.url, account.token);
    const port = Number(new URL(server.url).port);
    const rssStart = rssMb(server.pid);
    let rssPeak = rssStart ?? 0;
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'How much does the Pro plan cost per month?' }], sources: [{ url: 'https://shop.example/pricing', title: 'Pricing', text: 'The Pro plan costs 20 dollars per month.' }] });
    const t0 = Date.now();
    for (let i = 0; i < clients; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`POST /v1/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      socket.pause();
      sockets.push(socket);
    }
    const rows = async () => Number(((await (await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${account.token}` } })).json()) as { total: { requests: number } }).total.requests);
    // Each stream first pushes what the loopback socket buffers take (a few MB when nothing caps the answer), then
    // stalls; on 2 busy cores filling 200 of them takes a while, so the bound is generous and the timeline printed.
    const deadline = t0 + stallMs + 180_000;
    let metered = 0;
    const timeline: Array<{ s: number; open: number; rows: number }> = [];
    let nextMark = t0;
    while (Date.now() < deadline) {
      rssPeak = Math.max(rssPeak, rssMb(server.pid) ?? 0);
      metered = await rows();
      if (Date.now() >= nextMark) {
        timeline.push({ s: Math.round((Date.now() - t0) / 1000), open: upstream.open, rows: metered });
        nextMark += 10_000;
      }
      if (metered >= clients && upstream.open === 0) break;
      await sleep(250);
    }
    const allCutMs = Date.now() - t0;
    await sleep(1_000);
    const warnings = (server.output().match(/MaxListenersExceededWarning/g) ?? []).length;
    const figures = {
      clients,
      write_stall_ms: stallMs,
      upstream_calls: upstream.calls,
      usage_rows: metered,
      upstream_still_open: upstream.open,
      all_cut_after_ms: allCutMs,
      rss_mb: { start: rssStart, peak: rssPeak, after: rssMb(server.pid) },
      max_listeners_warnings: warnings,
      clients_that_read_anything: sockets.filter((s) => s.bytesRead > 0).length,
      timeline,
    };
    const problems: string[] = [];
    if (metered !== clients) problems.push(`${metered} usage rows for ${clients} streams`);
    if (upstream.open !== 0) problems.push(`${upstream.open} upstream answers still open`);
    if (warnings !== 0) problems.push(`${warnings} MaxListenersExceededWarning lines`);
    return { name: `${clients} clients that never read their stream (${options.database.kind})`, ok: problems.length === 0, figures, problems };
  } finally {
    for (const s of sockets) s.destroy();
    await server.stop('SIGKILL');
    await upstream.stop();
  }
}
