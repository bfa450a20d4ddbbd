import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startChildServer, type ChildServer } from './support/child-server.js';

/** Runs server/main.ts until it exits (or `timeoutMs` passes); resolves with its exit code, output and duration. */
function runToExit(env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_LOG_LEVEL: 'info', KIT_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

async function signup(url: string, email: string): Promise<number> {
  const res = await fetch(`${url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'lock test password' }) });
  return res.status;
}

async function login(url: string, email: string): Promise<number> {
  const res = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'lock test password' }) });
  return res.status;
}

describe('KIT_DATA_DIR lock (real server processes on one directory)', function () {
  this.timeout(240_000);
  let dir: string;
  const children: ChildServer[] = [];
  const start = async (env: Record<string, string> = {}, onSpawn?: Parameters<typeof startChildServer>[1]) => {
    const child = await startChildServer({ KIT_DATA_DIR: dir, KIT_DEMO: 'false', ...env }, onSpawn);
    children.push(child);
    return child;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-lock-'));
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.stop('SIGKILL')));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second server at once, exiting non-zero and naming the directory and the holder PID; the first keeps serving', async () => {
    const first = await start();
    const second = await runToExit({ KIT_DATA_DIR: dir });
    expect(second.code).to.equal(75);
    expect(second.stderr).to.include(dir).and.include(`process ${first.child.pid}`);
    expect(second.ms, 'exits at once, before opening the database').to.be.lessThan(15_000);
    const fatal = second.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { level: number; msg: string; holder_pid?: number });
    expect(fatal.find((l) => l.msg === 'data directory in use')?.holder_pid).to.equal(first.child.pid);
    expect(await signup(first.url, `still-${Date.now()}@example.test`)).to.equal(201);
  });

  it('recovers the lock of a SIGKILLed server: the next one starts and every acknowledged signup is there', async () => {
    const first = await start();
    const emails = Array.from({ length: 5 }, (_, i) => `killed-${Date.now()}-${i}@example.test`);
    for (const email of emails) expect(await signup(first.url, email)).to.equal(201);
    expect(await first.stop('SIGKILL')).to.equal(null);
    const second = await start();
    for (const email of emails) expect(await login(second.url, email), email).to.equal(200);
  });

  it('blue/green on one volume: the new server waits (KIT_DATA_DIR_LOCK_WAIT_MS) until the old one exits, then takes over', async () => {
    const blue = await start();
    const email = `bluegreen-${Date.now()}@example.test`;
    expect(await signup(blue.url, email)).to.equal(201);
    // Green is started and logs that it waits (its own start takes seconds on a loaded machine: a fixed pause raced it).
    let waiting!: Promise<void>;
    const green = start({ KIT_DATA_DIR_LOCK_WAIT_MS: '60000' }, (child) => {
      waiting = new Promise((resolve) => {
        let out = '';
        const seen = (c: Buffer) => {
          out += c.toString();
          if (out.includes('"msg":"data directory in use; waiting for its holder to exit"')) { child.stdout!.off('data', seen); resolve(); }
        };
        child.stdout!.on('data', seen);
      });
    });
    await Promise.race([waiting, green.then(() => { throw new Error('green listened while blue held the lock'); })]);
    // Green is waiting, not serving: blue still answers alone.
    expect(await signup(blue.url, `blue-only-${Date.now()}@example.test`)).to.equal(201);
    expect(await blue.stop('SIGTERM')).to.equal(0);
    const greenServer = await green;
    expect(await login(greenServer.url, email)).to.equal(200);
    expect(greenServer.stdout()).to.include('"msg":"data directory in use; waiting for its holder to exit"');
  });

  it('a bounded wait that runs out fails clearly instead of sharing', async () => {
    const holder = await start();
    const late = await runToExit({ KIT_DATA_DIR: dir, KIT_DATA_DIR_LOCK_WAIT_MS: '1000' });
    expect(late.code).to.equal(75);
    expect(late.stderr).to.match(/in use by process \d+ .* after waiting \d+ ms/).and.include(`process ${holder.child.pid}`);
    expect(late.ms).to.be.greaterThan(900);
  });
});
