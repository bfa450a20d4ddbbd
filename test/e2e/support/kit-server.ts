import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOwnedTempDir, onTermination, sweepLeftovers } from '../../support/owned-temp-dir.js';
import { copyDataTemplate, dataTemplate, inTestRun } from '../../support/data-template.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Builds dist/sdk when missing or stale (the real bundles are what e2e tests load). */
export function ensureSdkBuilt(): void {
  const r = spawnSync(process.execPath, [join(root, 'scripts/ensure-sdk-built.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('SDK build failed');
}

export interface KitServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the server printed so far (start banner, warnings). */
  output(): string;
  /** Signs up a developer and returns a JWT and a new publishable key (allowed origins as given; [] = loopback). */
  developerKey(allowedOrigins?: string[]): Promise<{ token: string; key: string }>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /**
   * Start on an empty data directory, where the server runs initdb and every migration, even in a test run — which
   * otherwise starts each server on a copy of the run's migrated template (./data-template.ts): the same database a
   * new install has once migrated, without ~10 s of initdb and migrations per server. For a test of what a first
   * start does to an empty directory. Outside a test run (benches, scripts) every start is fresh.
   */
  readonly freshData?: boolean;
}

/** Whether this process has removed the data directories of runs that are gone (once is enough). */
let swept = false;

/**
 * Starts the real Kit server (`server/main.ts`, embedded PGlite database in a temporary directory) as a child process
 * on a free port, exactly as `npm start` runs it, and waits for /healthz.
 */
export async function startKitServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<KitServer> {
  const port = await freePort();
  if (!swept) {
    swept = true;
    sweepLeftovers('kit-e2e-');
  }
  // The embedded database only (a DATABASE_URL server does not use it; an explicit KIT_DATA_DIR is the caller's).
  const template = !options.freshData && inTestRun() && env.DATABASE_URL === undefined && env.KIT_DATA_DIR === undefined ? await dataTemplate() : null;
  const dataDir = createOwnedTempDir('kit-e2e-');
  if (template !== null) copyDataTemplate(template, dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', KIT_DATA_DIR: dataDir, KIT_LOG_LEVEL: 'warn', KIT_SIGNUPS_PER_IP_PER_HOUR: '1000', KIT_LOGIN_MAX_PER_IP: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Stopped, and its ~40 MB data directory removed, when this process ends even if `stop()` is never called: a server
  // kept for several files (the console's shared stack) is stopped by a root after-hook that, in a `mocha --parallel`
  // worker, belongs to the first file that loaded it; without this, the servers of a worker's later files outlived
  // the run as orphans and left their directories behind.
  const forget = onTermination(() => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  });
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`kit server exited with ${child.exitCode}:\n${output}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`kit server did not start:\n${output}`); }
    await new Promise((r) => setTimeout(r, 200));
  }
  let n = 0;
  return {
    url,
    process: child,
    output: () => output,
    async developerKey(allowedOrigins = []) {
      const email = `dev${++n}-${Date.now()}@example.com`;
      const signup = await fetch(`${url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery staple', name: 'E2E', organization_name: 'E2E Org' }) });
      if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
      const { token } = (await signup.json()) as { token: string };
      const created = await fetch(`${url}/v1/keys`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ kind: 'publishable', name: 'e2e', allowed_origins: allowedOrigins }) });
      if (created.status !== 201) throw new Error(`create key: ${created.status} ${await created.text()}`);
      const body = (await created.json()) as { key: { value?: string }; secret?: string };
      return { token, key: body.key.value ?? body.secret! };
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => { const t = setTimeout(() => { child.kill('SIGKILL'); r(undefined); }, 10_000); child.once('exit', () => { clearTimeout(t); r(undefined); }); });
      }
      forget();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
