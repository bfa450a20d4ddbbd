import { expect } from 'chai';
import { ERROR_CODES, httpStatusOf, isErrorCode, KitError, isKitError, ok, fail } from '../../../core/errors/index.js';

// CONTRACT §5, copied here on purpose: the table in core must match the contract, not itself.
const CONTRACT: Record<string, number | null> = {
  invalid_request: 400, unauthenticated: 401, invalid_api_key: 401, session_required: 401, challenge_failed: 403,
  forbidden: 403, origin_not_allowed: 403, ip_not_allowed: 403, not_found: 404, method_not_allowed: 405, conflict: 409,
  payload_too_large: 413, unsupported_media_type: 415, rate_limited: 429, quota_exceeded: 429, billing_unavailable: 503,
  upstream_unavailable: 502, internal_error: 500,
  // Added by Kit (docs/api.md, "Where Kit differs from the contract"): the database is unreachable or restarting.
  service_unavailable: 503,
  // Added by issue 13 (docs/api.md, "Where Kit goes beyond"): versioned settings need If-Match's two statuses.
  precondition_failed: 412, precondition_required: 428,
  invalid_config: null, context_unavailable: null, webgpu_unavailable: null, model_load_failed: null, network_error: null,
};

describe('ERROR_CODES', () => {
  it('holds exactly the codes of the contract with their HTTP statuses', () => {
    expect(Object.keys(ERROR_CODES).sort()).to.deep.equal(Object.keys(CONTRACT).sort());
    for (const [code, status] of Object.entries(CONTRACT)) {
      expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status, code).to.equal(status);
    }
  });

  it('is frozen so no module can change a status at run time', () => {
    expect(Object.isFrozen(ERROR_CODES)).to.equal(true);
  });

  it('gives every code a human message', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) expect(entry.message, code).to.match(/\w{3,}/);
  });
});

describe('isErrorCode', () => {
  it('accepts known codes and rejects others, including prototype keys', () => {
    expect(isErrorCode('rate_limited')).to.equal(true);
    expect(isErrorCode('toString')).to.equal(false);
    expect(isErrorCode('nope')).to.equal(false);
    expect(isErrorCode(42)).to.equal(false);
  });
});

describe('KitError', () => {
  it('carries code, default message, status, details and cause', () => {
    const cause = new Error('socket hang up');
    const err = new KitError('upstream_unavailable', undefined, { details: { attempt: 2 }, cause });
    expect(err).to.be.instanceOf(Error);
    expect(err.code).to.equal('upstream_unavailable');
    expect(err.status).to.equal(502);
    expect(err.message).to.equal(ERROR_CODES.upstream_unavailable.message);
    expect(err.details).to.deep.equal({ attempt: 2 });
    expect(err.cause).to.equal(cause);
    expect(err.toJSON()).to.deep.equal({ code: 'upstream_unavailable', message: err.message });
  });

  it('maps SDK-side codes to 500 if they ever reach HTTP', () => {
    expect(httpStatusOf('invalid_config')).to.equal(500);
    expect(new KitError('invalid_config', 'x').status).to.equal(500);
  });
});

describe('isKitError', () => {
  it('recognises KitErrors, including look-alikes from another bundle copy', () => {
    expect(isKitError(new KitError('forbidden'))).to.equal(true);
    expect(isKitError({ name: 'KitError', code: 'forbidden', message: 'x' })).to.equal(true);
    expect(isKitError(new Error('x'))).to.equal(false);
    expect(isKitError(null)).to.equal(false);
  });
});

describe('ok / fail', () => {
  it('build value-shaped outcomes', () => {
    expect(ok(3)).to.deep.equal({ ok: true, value: 3 });
    expect(fail('webgpu_unavailable', 'no adapter')).to.deep.equal({ ok: false, code: 'webgpu_unavailable', reason: 'no adapter' });
  });
});
