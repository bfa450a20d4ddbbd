import { expect } from 'chai';
import { KitError } from '../../../core/errors/index.js';
import { networkError, responseError, retryAfterSeconds } from '../../../adapters/remote/response-error.js';

const cases: readonly { name: string; status: number; headers?: Record<string, string>; body: string; code: string; details: Record<string, unknown> }[] = [
  { name: 'a contract error body', status: 403, body: '{"error":{"code":"origin_not_allowed","message":"No.","request_id":"req_1"}}', code: 'origin_not_allowed', details: { request_id: 'req_1' } },
  { name: 'rate_limited with Retry-After seconds', status: 429, headers: { 'retry-after': '12' }, body: '{"error":{"code":"rate_limited","message":"Slow.","request_id":"req_2"}}', code: 'rate_limited', details: { request_id: 'req_2', retry_after_seconds: 12 } },
  { name: 'quota_exceeded with only a RateLimit header (draft t=)', status: 429, headers: { ratelimit: '"default";r=0;t=3600' }, body: '{"error":{"code":"quota_exceeded","message":"Quota.","request_id":"req_3"}}', code: 'quota_exceeded', details: { request_id: 'req_3', retry_after_seconds: 3600 } },
  { name: 'a gateway page', status: 502, headers: { 'request-id': 'req_4' }, body: '<html>Bad gateway</html>', code: 'network_error', details: { request_id: 'req_4' } },
  { name: 'an unknown code from a newer server', status: 400, body: '{"error":{"code":"brand_new","message":"New.","request_id":"req_5"}}', code: 'invalid_request', details: { request_id: 'req_5' } },
  { name: 'an empty 500', status: 500, body: '', code: 'internal_error', details: {} },
];

describe('responseError', () => {
  for (const c of cases) {
    it(`maps ${c.name} to ${c.code}`, () => {
      const error = responseError({ status: c.status, headers: c.headers ?? {}, body: '' }, c.body);
      expect(error).to.be.instanceOf(KitError);
      expect(error.code).to.equal(c.code);
      expect(error.details).to.deep.equal(c.details);
    });
  }
});

describe('retryAfterSeconds', () => {
  it('reads an HTTP date as seconds from now', () => {
    const seconds = retryAfterSeconds({ 'retry-after': new Date(Date.now() + 90_000).toUTCString() });
    expect(seconds).to.be.within(88, 90);
  });

  it('returns undefined when neither header says', () => {
    expect(retryAfterSeconds({})).to.equal(undefined);
  });
});

describe('networkError', () => {
  it('wraps a fetch TypeError as network_error and keeps the cause', () => {
    const cause = new TypeError('fetch failed');
    const error = networkError(cause);
    expect(error.code).to.equal('network_error');
    expect(error.cause).to.equal(cause);
  });
});
