#!/usr/bin/env node
/**
 * Smoke test of what ships: starts the BUILT server (`node dist/server/main.js`, after `npm run build`) on a fresh
 * embedded database in a temporary directory, on a loopback port, and walks what a new user does first — the demo
 * site and SDK bundle, the printed demo key through the bot challenge to a streamed, cited answer, a developer's
 * signup, key creation and usage, the console and the demo owner's sign-in — then stops it with SIGTERM and expects exit code 0.
 *
 *   npm run build && npm run smoke          (.ci/run does this)
 *
 * Plain Node (no tsx, no TypeScript): it must run against dist/ alone. Exits 1 with the failing step named.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { solveChallenge } from 'altcha-lib/v1';

const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'dist/server/main.js');
if (!existsSync(entry)) {
  console.error('smoke: dist/server/main.js is missing; run `npm run build` first.');
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'kit-smoke-'));
const child = spawn(process.execPath, [entry], {
  cwd: root,
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_DATA_DIR: dataDir, KIT_LOG_LEVEL: 'warn', NODE_ENV: 'production', KIT_ALTCHA_MAX_NUMBER: '20000' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
let err = '';
child.stdout.on('data', (c) => (out += c));
child.stderr.on('data', (c) => (err += c));
const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));

let step = 'start';
const started = Date.now();
const fail = (message) => {
  throw new Error(`${step}: ${message}`);
};
const expect = (ok, message) => {
  if (!ok) fail(message);
};

try {
  const base = await new Promise((done, reject) => {
    const timer = setTimeout(() => reject(new Error('no start banner within 120 s')), 120_000);
    const check = () => {
      // The banner is written to stderr (stdout carries the JSON log lines).
      const m = /Kit is running at (http:\/\/\S+)/.exec(err);
      if (m && /demo key {3}kit_pub_\w+/.test(err)) {
        clearTimeout(timer);
        done(m[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stderr.on('data', check);
    void exited.then(({ code }) => reject(new Error(`exited (${code}) before listening`)));
  });
  const api = `${base}/v1`;
  const key = /demo key {3}(kit_pub_\w+)/.exec(err)[1];

  step = 'health';
  expect((await fetch(`${base}/healthz`)).status === 200, '/healthz is not 200');
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status === 200 && (await ready.json()).database === 'pglite', '/readyz is not ready on pglite');

  step = 'demo site and SDK bundle';
  const demo = await fetch(`${base}/demo/`);
  expect(demo.status === 200 && (await demo.text()).includes(key), '/demo/ does not embed the demo key');
  const sdk = await fetch(`${base}/sdk/kit.js`);
  expect(sdk.status === 200 && (await sdk.text()).length > 1000, '/sdk/kit.js is not served');

  step = 'openapi';
  const doc = await (await fetch(`${api}/openapi.json`)).json();
  expect(doc.openapi === '3.1.0' && Object.keys(doc.paths).length >= 15, 'the OpenAPI document is incomplete');

  step = 'console (issue 14)';
  // The banner names the console and the demo owner's sign-in; the built console is served under its CSP and the
  // printed password signs in with a browser session (HttpOnly cookie).
  expect(/console {4}http:\/\/\S+:\d+\/console\//.test(err), 'the banner does not print the console URL');
  const owner = /owner {6}(demo@example\.com) \/ (\S+)/.exec(err);
  expect(owner !== null, 'the banner does not print the demo owner\'s sign-in');
  const consolePage = await fetch(`${base}/console/`);
  const csp = consolePage.headers.get('content-security-policy') ?? '';
  expect(consolePage.status === 200 && (await consolePage.text()).includes('/console/assets/console.js'), '/console/ is not served from dist/console');
  expect(csp.includes("script-src 'self'") && !csp.includes('unsafe-inline'), `/console/ CSP: ${csp}`);
  const signIn = await fetch(`${api}/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ email: owner[1], password: owner[2] }) });
  expect(signIn.status === 201 && /HttpOnly/i.test(signIn.headers.get('set-cookie') ?? ''), `demo owner sign-in: ${signIn.status}`);

  step = 'bot challenge and session (demo key)';
  const origin = base.replace('127.0.0.1', 'localhost');
  const config = await (await fetch(`${api}/config`, { headers: { authorization: `Bearer ${key}`, origin } })).json();
  expect(config.bot_challenge?.provider === 'altcha', `bot challenge is ${config.bot_challenge?.provider}`);
  const c = config.bot_challenge.challenge;
  const solved = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  expect(solved, 'no ALTCHA solution found');
  const solution = Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solved.number, salt: c.salt, signature: c.signature })).toString('base64');
  const sessionRes = await fetch(`${api}/session`, { method: 'POST', headers: { authorization: `Bearer ${key}`, origin, 'content-type': 'application/json' }, body: JSON.stringify({ provider: 'altcha', solution }) });
  const session = await sessionRes.json();
  expect(sessionRes.status === 201 && typeof session.session === 'string', `POST /session answered ${sessionRes.status} ${JSON.stringify(session)}`);

  step = 'streamed chat';
  const chat = await fetch(`${api}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'kit-session': session.session, origin, 'content-type': 'application/json' },
    body: JSON.stringify({
      messages: [{ role: 'user', content: 'How much does the Summit membership cost?' }],
      sources: [{ url: `${base}/demo/pricing.html`, title: 'Memberships', text: 'The Summit plan costs $49 per year and gives 10% off all gear, free standard shipping and one free repair per year.' }],
    }),
  });
  const stream = await chat.text();
  expect(chat.status === 200 && (chat.headers.get('content-type') ?? '').startsWith('text/event-stream'), `POST /chat answered ${chat.status}`);
  const events = [...stream.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
  expect(events[0] === 'start' && events.includes('citation') && events.at(-1) === 'done', `events ${events.join(',')}`);
  expect(stream.includes('$49'), 'the answer does not quote the price');

  step = 'signup, keys, usage';
  const signup = await fetch(`${api}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'smoke@example.test', password: 'smoke test password' }) });
  const account = await signup.json();
  expect(signup.status === 201 && account.role === 'owner', `signup answered ${signup.status}`);
  const auth = { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' };
  const created = await fetch(`${api}/keys`, { method: 'POST', headers: auth, body: JSON.stringify({ kind: 'secret', name: 'smoke' }) });
  const secret = (await created.json()).secret;
  expect(created.status === 201 && /^kit_sec_/.test(secret), `POST /keys answered ${created.status}`);
  const json = await fetch(`${api}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ stream: false, messages: [{ role: 'user', content: 'How much does the Summit membership cost?' }], sources: [{ url: 'https://shop.example/pricing', title: 'Memberships', text: 'The Summit plan costs $49 per year.' }] }),
  });
  expect(json.status === 200 && (await json.json()).text.includes('$49'), `secret-key chat answered ${json.status}`);
  const usage = await (await fetch(`${api}/usage?group_by=key`, { headers: auth })).json();
  expect(usage.total?.requests === 1, `usage shows ${JSON.stringify(usage.total)}`);

  step = 'SIGTERM';
  child.kill('SIGTERM');
  const { code } = await exited;
  expect(code === 0, `exit code ${code}`);
  console.log(`smoke: dist/server/main.js passed every step in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(`smoke: FAILED at ${e.message}\n--- server stdout ---\n${out.slice(-4000)}\n--- server stderr ---\n${err.slice(-4000)}`);
  process.exitCode = 1;
} finally {
  if (child.exitCode === null) child.kill('SIGKILL');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
