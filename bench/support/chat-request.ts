/**
 * What the /chat benchmark and its diagnostics (bench/chat.bench.ts, bench/support/chat-cost.ts, chat-db-share.ts,
 * profile-chat.ts) send and how they read a process's CPU: one definition, so every figure about /chat measures the
 * same request.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** 0.8 KB of sources, as in issue 12's measurement. */
export const SOURCE_TEXT = ('The Pro plan costs 20 dollars per month and includes unlimited projects. The Team plan costs 50 dollars per month and adds roles, audit logs and single sign-on. '
  + 'Every plan includes email support; Team adds a shared inbox. Annual billing saves two months. Prices exclude VAT, which is added at checkout for customers in the EU. '
  + 'You can cancel at any time from the billing page; the plan stays active until the end of the paid period. Refunds are prorated for annual plans cancelled within 30 days. ')
  .repeat(2).slice(0, 800);

/** The benchmark's POST /v1/chat body, JSON or streamed. */
export const chatBody = (stream: boolean): string => JSON.stringify({
  messages: [{ role: 'user', content: 'How much does the Pro plan cost per month?' }],
  sources: [{ url: 'https://shop.example.com/pricing', title: 'Pricing', text: SOURCE_TEXT }],
  stream,
});

/** Limits no benchmark reaches (KIT_PLAN_LIMITS). */
export const PLAN_LIMITS = JSON.stringify({ business: { requests_per_minute: 1_000_000, org_requests_per_minute: 10_000_000, monthly_tokens: 1e15 } });

/** The environment of a Kit server under load (add DATABASE_URL or the data directory). */
export const KIT_BENCH_ENV = { PORT: '0', HOST: '127.0.0.1', KIT_DEMO: 'false', NODE_ENV: 'production', KIT_JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123', KIT_PLAN_LIMITS: PLAN_LIMITS };

/** The line a Kit server logs once it listens, with its URL. */
export const LISTENING = /listening on (http:\/\/[^/"\s]+)/;

export const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** utime + stime of a process, in ms (0 once it is gone). */
export function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The postmaster of a test cluster (`dir`: its directory) and its children (backends, WAL writer, …). */
export function clusterPids(dir: string): number[] {
  const postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)]).toString().trim().split(/\s+/).map(Number);
  return [postmaster, ...children];
}
