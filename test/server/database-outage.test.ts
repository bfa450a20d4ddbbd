import { expect } from 'chai';
import { postgresAvailable, startPostgres, type TestPostgres } from '../support/postgres.js';
import { chatBody } from './support/chat.js';
import { signupWithKeys, startChildServer, type ChildServer } from './support/child-server.js';

const requirePostgres = postgresAvailable() || process.env.KIT_REQUIRE_POSTGRES === '1';

/** Every stdout line of the server must be one JSON object (log shippers read it line by line). */
function nonJsonLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
}

(requirePostgres ? describe : describe.skip)('a PostgreSQL outage under requests (server in a child process)', function () {
  this.timeout(180_000);
  let pg: TestPostgres;
  let server: ChildServer;

  before(async () => {
    pg = await startPostgres(); // its own cluster: stopping it must not disturb other suites
    server = await startChildServer({ DATABASE_URL: pg.url, KIT_DEMO: 'false', KIT_KEY_CACHE_TTL_MS: '0' });
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await pg?.stop();
  });

  it('answers 503 service_unavailable with Retry-After while PostgreSQL restarts, never 500, and recovers without a restart', async () => {
    const email = `outage-${Date.now()}@example.test`;
    const account = await signupWithKeys(server.url, 'outage');
    const secret = await account.key('secret');
    const signup = await fetch(`${server.url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'outage password 1' }) });
    expect(signup.status).to.equal(201);
    const chat = () => fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody(undefined, { stream: false })) });
    const login = () => fetch(`${server.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'outage password 1' }) });
    expect((await chat()).status).to.equal(200);

    // Requests keep coming while the database goes away and comes back.
    const statuses: number[] = [];
    const bodies: Array<{ status: number; code: string | null; retryAfter: string | null }> = [];
    let running = true;
    const load = (send: () => Promise<Response>) =>
      (async () => {
        while (running) {
          const res = await send();
          statuses.push(res.status);
          const body = (await res.json()) as { error?: { code: string } };
          if (res.status >= 500) bodies.push({ status: res.status, code: body.error?.code ?? null, retryAfter: res.headers.get('retry-after') });
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
    const loops = [load(chat), load(chat), load(login)];
    await new Promise((r) => setTimeout(r, 300));
    await pg.pause('fast');

    // During the outage: the contract's 503 with Retry-After, for /chat and /auth/login alike.
    const downChat = await chat();
    expect(downChat.status).to.equal(503);
    expect(downChat.headers.get('retry-after')).to.equal('5');
    const downBody = (await downChat.json()) as { error: { code: string; request_id: string } };
    expect(downBody.error.code).to.equal('service_unavailable');
    expect(downBody.error.request_id).to.match(/^req_/);
    const downLogin = await login();
    expect(downLogin.status).to.equal(503);
    expect(((await downLogin.json()) as { error: { code: string } }).error.code).to.equal('service_unavailable');
    await new Promise((r) => setTimeout(r, 1_000));

    await pg.resume();
    // Back without restarting the server: both routes answer normally again within a few seconds.
    const deadline = Date.now() + 20_000;
    let chatBack = 0;
    let loginBack = 0;
    while (Date.now() < deadline && (chatBack !== 200 || loginBack !== 200)) {
      [chatBack, loginBack] = [(await chat()).status, (await login()).status];
      if (chatBack !== 200 || loginBack !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    running = false;
    await Promise.all(loops);
    expect([chatBack, loginBack]).to.deep.equal([200, 200]);

    expect(statuses.filter((s) => s === 503).length, 'some requests met the outage').to.be.greaterThan(0);
    expect(bodies.filter((b) => b.status !== 503 || b.code !== 'service_unavailable' || b.retryAfter !== '5'), JSON.stringify(bodies.slice(0, 5))).to.deep.equal([]);
    expect(server.child.exitCode).to.equal(null);
    expect(nonJsonLines(server.stdout()), 'every stdout line is one JSON object').to.deep.equal([]);
    expect(server.stdout()).to.include('"msg":"database unavailable"');
  });
});
