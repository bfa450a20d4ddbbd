import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import type { Platform } from '../../server/platform.js';
import { sharedPglite } from '../support/databases.js';
import { createTestPlatform, listen, logCapture, seedOrg, type SeededOrg, SEED_PASSWORD } from '../support/platform.js';

const ERROR_SHAPE = /^req_[0-9A-Za-z]{24}$/;

function expectError(res: request.Response, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.have.all.keys('error');
  expect(res.body.error).to.have.all.keys('code', 'message', 'request_id');
  expect(res.body.error.code).to.equal(code);
  expect(res.body.error.request_id).to.match(ERROR_SHAPE).and.equal(res.headers['request-id']);
}

describe('createApp', () => {
  let platform: Platform;
  let org: SeededOrg;
  const logs = logCapture();

  before(async function () {
    this.timeout(180_000); // PGlite start-up is seconds on an idle 2-core machine, far more on a busy one
    platform = await createTestPlatform({ database: await sharedPglite(), logs, env: { KIT_CORS_ORIGINS: 'https://dash.example.com' } });
    org = await seedOrg(platform, 'app');
  });
  after(() => platform.close());

  const api = () => request(platform.app.callback());

  it('sends a unique Request-Id on every response, errors included', async () => {
    const responses = await Promise.all([api().get('/healthz'), api().get('/v1/nope'), api().get('/v1/org'), api().get('/v1/openapi.json')]);
    const ids = responses.map((r) => r.headers['request-id']);
    for (const id of ids) expect(id).to.match(ERROR_SHAPE);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('answers not_found in the contract shape for an unknown path', async () => {
    expectError(await api().get('/v1/does-not-exist'), 404, 'not_found');
    expectError(await api().get('/nothing-here'), 404, 'not_found');
  });

  it('redirects / to the demo site', async () => {
    const res = await api().get('/');
    expect(res.status).to.equal(302);
    expect(res.headers.location).to.equal('/demo/');
  });

  it('answers method_not_allowed with an Allow header for a known path and a wrong method', async () => {
    const res = await api().put('/v1/keys').set('authorization', `Bearer ${org.members.owner.token}`);
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).to.include('GET').and.include('POST');
  });

  it('refuses a body that is not JSON with unsupported_media_type', async () => {
    const res = await api().patch('/v1/org').set('authorization', `Bearer ${org.members.owner.token}`).set('content-type', 'text/plain').send('name=x');
    expectError(res, 415, 'unsupported_media_type');
  });

  it('refuses JSON in another charset with unsupported_media_type', async () => {
    const res = await api().patch('/v1/org').set('authorization', `Bearer ${org.members.owner.token}`).set('content-type', 'application/json; charset=latin1').send('{"name":"x"}');
    expectError(res, 415, 'unsupported_media_type');
  });

  it('refuses malformed JSON and invalid UTF-8 with invalid_request', async () => {
    const bad = [Buffer.from('{"name":'), Buffer.from('{"name": "a"} trailing'), Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])];
    for (const body of bad) {
      const res = await api().patch('/v1/org').set('authorization', `Bearer ${org.members.owner.token}`).set('content-type', 'application/json').send(body);
      expectError(res, 400, 'invalid_request');
    }
  });

  it('refuses a body over the limit with payload_too_large, announced or chunked', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(70_000) });
    expectError(await api().patch('/v1/org').set('authorization', `Bearer ${org.members.owner.token}`).set('content-type', 'application/json').send(big), 413, 'payload_too_large');
    // Chunked: no Content-Length, so the limit must hold while streaming.
    const { url, close } = await listen(platform);
    try {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${url}/v1/org`, { method: 'PATCH', headers: { authorization: `Bearer ${org.members.owner.token}`, 'content-type': 'application/json' } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        for (let i = 0; i < 10; i++) req.write(big.slice(i * 7_001, (i + 1) * 7_001));
        req.end();
      });
      expect(status, body + logs.lines.filter((l) => l.includes("unhandled")).join("")).to.equal(413);
      expect(JSON.parse(body).error.code).to.equal('payload_too_large');
    } finally {
      await close();
    }
  });

  it('answers GET /healthz and GET /readyz when the database answers', async () => {
    expect((await api().get('/healthz')).body).to.deep.equal({ status: 'ok' });
    const ready = await api().get('/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body.status).to.equal('ready');
  });

  it('sends CORS headers only for configured dashboard origins and exposes Request-Id', async () => {
    const allowed = await api().get('/v1/org').set('origin', 'https://dash.example.com').set('authorization', `Bearer ${org.members.viewer.token}`);
    expect(allowed.headers['access-control-allow-origin']).to.equal('https://dash.example.com');
    expect(allowed.headers['access-control-expose-headers']).to.include('Request-Id');
    const other = await api().get('/v1/org').set('origin', 'https://evil.example').set('authorization', `Bearer ${org.members.viewer.token}`);
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
    const preflight = await api().options('/v1/keys').set('origin', 'https://dash.example.com').set('access-control-request-method', 'POST').set('access-control-request-headers', 'authorization, content-type');
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-headers']).to.match(/authorization/i);
  });

  it('lets a dashboard on an allowed origin save versioned settings: If-Match allowed, ETag and the rest exposed', async () => {
    // A browser refuses the PATCH unless the preflight allows every header it asks for, and hides from the script
    // every response header not exposed: without If-Match and ETag a dashboard cannot save /assistant (428 / 412).
    for (const path of ['/v1/assistant', '/v1/org/question-logging']) {
      const preflight = await api().options(path).set('origin', 'https://dash.example.com').set('access-control-request-method', 'PATCH').set('access-control-request-headers', 'authorization,content-type,if-match');
      expect(preflight.status, path).to.equal(204);
      expect(preflight.headers['access-control-allow-origin']).to.equal('https://dash.example.com');
      const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/);
      expect(allowed, path).to.include.members(['authorization', 'content-type', 'if-match', 'idempotency-key']);
      expect(String(preflight.headers['access-control-allow-methods'])).to.include('PATCH');
      const read = await api().get(path).set('origin', 'https://dash.example.com').set('authorization', `Bearer ${org.members.owner.token}`);
      expect(read.status).to.equal(200);
      expect(read.headers.etag).to.match(/^"\d+"$/);
      const exposed = String(read.headers['access-control-expose-headers']).toLowerCase().split(/\s*,\s*/);
      expect(exposed, path).to.include.members(['etag', 'request-id', 'retry-after', 'ratelimit', 'ratelimit-policy', 'content-disposition']);
    }
    const saved = await api()
      .patch('/v1/assistant')
      .set('origin', 'https://dash.example.com')
      .set('authorization', `Bearer ${org.members.owner.token}`)
      .set('if-match', (await api().get('/v1/assistant').set('authorization', `Bearer ${org.members.owner.token}`)).headers.etag)
      .send({ greeting: 'Hello from the dashboard' });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.headers['access-control-allow-origin']).to.equal('https://dash.example.com');
  });

  it('refuses a query parameter a route does not take, in the contract shape, and does nothing', async () => {
    const owner = org.members.owner.token;
    const created = await api().post('/v1/keys').set('authorization', `Bearer ${owner}`).send({ kind: 'publishable', name: 'dry run target' });
    expect(created.status).to.equal(201);
    const id = created.body.key.id as string;
    const dry = await api().post(`/v1/keys/${id}/rotate?dry=1`).set('authorization', `Bearer ${owner}`).send({});
    expectError(dry, 400, 'invalid_request');
    expect(dry.body.error.message).to.equal('dry: is not a query parameter of this route (it takes none)');
    const listed = (await api().get('/v1/keys?limit=100').set('authorization', `Bearer ${owner}`)).body.data as { id: string; status: string }[];
    expect(listed.find((k) => k.id === id)?.status, 'the key was not rotated').to.equal('active');
    // On a route with a query of its own, the message names what it takes; the documented parameters still work.
    const typo = await api().get('/v1/keys?limt=5').set('authorization', `Bearer ${owner}`);
    expectError(typo, 400, 'invalid_request');
    expect(typo.body.error.message).to.equal('limt: is not a query parameter of this route (it takes limit, starting_after, include_revoked)');
    expect((await api().get('/v1/keys?limit=5&include_revoked=true').set('authorization', `Bearer ${owner}`)).status).to.equal(200);
    expectError(await api().get('/v1/org?cache=123').set('authorization', `Bearer ${owner}`), 400, 'invalid_request');
    expect((await api().get('/v1/org?').set('authorization', `Bearer ${owner}`)).status).to.equal(200);
    // A name that does not look like one is not echoed.
    const odd = await api().get('/v1/org?%3Cscript%3E=1').set('authorization', `Bearer ${owner}`);
    expectError(odd, 400, 'invalid_request');
    expect(odd.body.error.message).to.equal('query: has a query parameter that is not known');
  });

  it('words validation problems in plain English, the field first, never zod\'s own wording', async () => {
    const owner = org.members.owner.token;
    const cases: [request.Test, string][] = [
      [api().get('/v1/keys?limit=abc').set('authorization', `Bearer ${owner}`), 'limit: must be a number'],
      [api().get('/v1/keys?limit=1&limit=2').set('authorization', `Bearer ${owner}`), 'limit: must be given once'],
      [api().get('/v1/usage?group_by=year').set('authorization', `Bearer ${owner}`), 'group_by: must be one of day, key, model, mode'],
      [api().post('/v1/keys').set('authorization', `Bearer ${owner}`).send({ name: 'x' }), 'kind: is required (one of publishable, secret)'],
      [api().post('/v1/keys').set('authorization', `Bearer ${owner}`).send({ kind: 'secret', name: 'x', colour: 'red' }), 'colour: is not a known field (known: kind, name, allowed_origins, ip_allowlist)'],
      [api().post('/v1/keys').set('authorization', `Bearer ${owner}`).send({ kind: 'secret', name: 42 }), 'name: must be a string'],
      [api().patch('/v1/org').set('authorization', `Bearer ${owner}`).send({ name: null }), 'name: must be a string, not null'],
      [api().post('/v1/keys').set('authorization', `Bearer ${owner}`).send([]), 'body: must be an object {kind, name, allowed_origins, ip_allowlist}'],
    ];
    for (const [req, message] of cases) {
      const res = await req;
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.message).to.equal(message);
    }
    const key = await api().post('/v1/keys').set('authorization', `Bearer ${owner}`).send({ kind: 'secret', name: 'wording' });
    const chat = await api().post('/v1/chat').set('authorization', `Bearer ${key.body.secret}`).send({ sources: [] });
    expectError(chat, 400, 'invalid_request');
    expect(chat.body.error.message).to.equal('messages: is required (an array of {role, content})');
    const role = await api().post('/v1/chat').set('authorization', `Bearer ${key.body.secret}`).send({ messages: [{ role: 'bot', content: 'hi' }], sources: [] });
    expect(role.body.error.message).to.equal('messages.0.role: must be one of user, assistant');
  });

  it('maps an unexpected error to internal_error without its message, and logs it with the request id', async () => {
    const db = platform.database.knex;
    // Break the organisations table for one request by renaming it inside a transaction we then roll back.
    const res = await (async () => {
      await db.schema.renameTable('organizations', 'organizations_gone');
      try {
        return await api().get('/v1/org').set('authorization', `Bearer ${org.members.owner.token}`);
      } finally {
        await db.schema.renameTable('organizations_gone', 'organizations');
      }
    })();
    expectError(res, 500, 'internal_error');
    expect(res.body.error.message).to.not.include('organizations');
    const logged = logs.lines.find((l) => l.includes(res.body.error.request_id) && l.includes('unhandled error'));
    expect(logged, 'error logged with request id').to.be.a('string');
  });

  it('never writes passwords, tokens or keys to the logs', async () => {
    const email = `logcheck-${Date.now()}@example.test`;
    const password = 'a very secret password 42';
    const signup = await api().post('/v1/auth/signup').send({ email, password });
    expect(signup.status).to.equal(201);
    await api().post('/v1/auth/login').send({ email, password: 'wrong password 99' });
    await api().post('/v1/auth/login').send({ email: org.members.owner.email, password: SEED_PASSWORD });
    const key = await api().post('/v1/keys').set('authorization', `Bearer ${signup.body.token}`).send({ kind: 'secret', name: 'log check' });
    expect(key.status).to.equal(201);
    const invite = await api().post('/v1/org/members').set('authorization', `Bearer ${signup.body.token}`).send({ email: 'invitee@example.test', role: 'viewer' });
    await api().get('/v1/keys').set('authorization', `Bearer ${key.body.secret}`);
    // The invitation email is written after the response; wait for its log line so the check below cannot pass
    // merely because the outbox had not written yet.
    const outboxLine = (l: string) => l.includes('email written to the outbox') && l.includes('invitee@example.test');
    if (invite.body.emailed) for (let waited = 0; !logs.lines.some(outboxLine) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(logs.lines.some(outboxLine), 'the invitation email was written and logged').to.equal(Boolean(invite.body.emailed));
    // Outside production the development outbox logs the email's text on purpose (its one-time link is how a
    // developer without SMTP follows it, docs/console.md); that line alone may carry the invitation token.
    const all = logs.lines.filter((l) => !outboxLine(l)).join('\n');
    expect(all).to.include('"path":"/v1/auth/login"');
    for (const secret of [password, 'wrong password 99', SEED_PASSWORD, signup.body.token, key.body.secret, invite.body.invitation.token, org.members.owner.token]) {
      expect(all).to.not.include(secret);
    }
    for (const secret of [password, SEED_PASSWORD, signup.body.token, key.body.secret, org.members.owner.token]) {
      expect(logs.lines.filter(outboxLine).join('\n')).to.not.include(secret);
    }
  });
});
