import { expect } from 'chai';
import request from 'supertest';
import { ERROR_CODES } from '../../../core/errors/index.js';
import { errorCodesOf } from '../../../server/http/openapi.js';
import type { Platform } from '../../../server/platform.js';
import { resolveAll } from '../../../server/tokens.js';
import { sharedPglite } from '../../support/databases.js';
import { createResponseValidator } from '../../support/openapi-validator.js';
import { createTestPlatform, seedOrg, type SeededOrg } from '../../support/platform.js';

describe('buildOpenApiDocument', () => {
  let platform: Platform;
  let org: SeededOrg;
  let doc: Parameters<typeof createResponseValidator>[0] & { openapi: string; paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };
  const api = () => request(platform.app.callback());

  before(async function () {
    this.timeout(180_000);
    platform = await createTestPlatform({ database: await sharedPglite() });
    org = await seedOrg(platform, 'openapi');
    doc = (await api().get('/v1/openapi.json')).body;
  });
  after(() => platform.close());

  it('is an OpenAPI 3.1 document served without credentials', () => {
    expect(doc.openapi).to.equal('3.1.0');
  });

  it('documents every registered route, and nothing else', () => {
    const registered = resolveAll(platform.container, 'Routes').flat().map((r) => `${r.method} ${r.path}`);
    registered.push('get /openapi.json');
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented.sort()).to.deep.equal(registered.sort());
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it("documents each route's error codes with their contract statuses", () => {
    for (const route of resolveAll(platform.container, 'Routes').flat()) {
      const op = (doc.paths[route.path] as Record<string, { responses: Record<string, unknown>; 'x-error-codes': string[] }>)[route.method]!;
      expect(op['x-error-codes']).to.deep.equal(errorCodesOf(route));
      for (const code of op['x-error-codes']) expect(op.responses, `${route.path} ${code}`).to.have.property(String(ERROR_CODES[code as keyof typeof ERROR_CODES].status));
    }
  });

  it('describes the error body the server actually sends', async () => {
    const validate = createResponseValidator(doc);
    const samples: Array<[string, string, request.Test]> = [
      ['get', '/keys', api().get('/v1/keys')],
      ['post', '/keys', api().post('/v1/keys').set('authorization', `Bearer ${org.members.owner.token}`).send({ kind: 'x' })],
      ['patch', '/keys/{id}', api().patch('/v1/keys/key_nope').set('authorization', `Bearer ${org.members.owner.token}`).send({ name: 'x' })],
      ['post', '/auth/login', api().post('/v1/auth/login').send({ email: 'nobody@example.test', password: 'x' })],
      ['patch', '/org', api().patch('/v1/org').set('authorization', `Bearer ${org.members.viewer.token}`).send({ name: 'x' })],
      ['get', '/usage', api().get('/v1/usage?group_by=year').set('authorization', `Bearer ${org.members.viewer.token}`)],
    ];
    for (const [method, path, pending] of samples) {
      const res = await pending;
      expect(res.status).to.be.at.least(400);
      expect(validate(method, path, res.status, res.body)).to.equal(null);
    }
    // and the validator itself catches a body that drifts from the document
    expect(validate('get', '/keys', 401, { error: { code: 'unauthenticated', message: 'x' } })).to.be.a('string');
    expect(validate('get', '/keys', 401, { error: { code: 'unauthenticated', message: 'x', request_id: 'req_abc', extra: 1 } })).to.be.a('string');
  });

  it('describes the success bodies the server actually sends', async () => {
    const validate = createResponseValidator(doc);
    const owner = org.members.owner.token;
    const created = await api().post('/v1/keys').set('authorization', `Bearer ${owner}`).send({ kind: 'publishable', name: 'doc' });
    const checks: Array<[string, string, request.Response]> = [
      ['post', '/keys', created],
      ['get', '/keys', await api().get('/v1/keys').set('authorization', `Bearer ${owner}`)],
      ['patch', '/keys/{id}', await api().patch(`/v1/keys/${created.body.key.id}`).set('authorization', `Bearer ${owner}`).send({ name: 'doc2' })],
      ['post', '/keys/{id}/rotate', await api().post(`/v1/keys/${created.body.key.id}/rotate`).set('authorization', `Bearer ${owner}`)],
      ['get', '/org', await api().get('/v1/org').set('authorization', `Bearer ${owner}`)],
      ['get', '/org/members', await api().get('/v1/org/members').set('authorization', `Bearer ${owner}`)],
      ['post', '/org/members', await api().post('/v1/org/members').set('authorization', `Bearer ${owner}`).send({ email: 'doc@example.test', role: 'viewer' })],
      ['get', '/usage', await api().get('/v1/usage?group_by=key').set('authorization', `Bearer ${owner}`)],
    ];
    for (const [method, path, res] of checks) {
      expect(res.status, `${method} ${path}`).to.be.below(300);
      expect(validate(method, path, res.status, res.body)).to.equal(null);
    }
  });
});
