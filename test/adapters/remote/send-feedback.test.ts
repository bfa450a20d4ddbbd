import { expect } from 'chai';
import { isKitError } from '../../../core/errors/index.js';
import type { HttpRequest, HttpResponse, HttpTransportPort } from '../../../core/ports/http-transport.port.js';
import type { PlatformClient } from '../../../adapters/remote/platform-client.js';
import { sendFeedback } from '../../../adapters/remote/send-feedback.js';

/** A client whose sessions are numbered; `stale` asks for the next one, like the real client after session_required. */
function fakeClient(): PlatformClient & { asked: Array<string | undefined> } {
  let n = 1;
  const asked: Array<string | undefined> = [];
  return {
    asked,
    baseUrl: 'https://kit.example/v1',
    getConfig: () => Promise.reject(new Error('unused')),
    chat: () => { throw new Error('unused'); },
    heldSession: () => `kit_ses_${n}`,
    async getSession(options = {}) {
      asked.push(options.stale);
      if (options.stale === `kit_ses_${n}`) n++;
      return { token: `kit_ses_${n}`, expiresAt: Date.now() + 60_000, renewAt: Date.now() + 30_000 };
    },
    destroy() {},
  };
}

function transport(answers: Array<(r: HttpRequest) => HttpResponse>): HttpTransportPort & { requests: HttpRequest[] } {
  const requests: HttpRequest[] = [];
  return {
    requests,
    async request(r) {
      requests.push(r);
      return answers.shift()!(r);
    },
  };
}

const json = (status: number, body: unknown): HttpResponse => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('sendFeedback', () => {
  it('posts the vote with the key and the session, and says whether the comment was kept', async () => {
    const client = fakeClient();
    const t = transport([() => json(200, { message_id: 'req_abcdefgh', rating: 'down', comment_stored: true })]);
    const result = await sendFeedback(client, t, 'kit_pub_x', { message_id: 'req_abcdefgh', rating: 'down', comment: 'wrong' });
    expect(result).to.deep.equal({ commentStored: true });
    expect(t.requests[0]).to.deep.include({ method: 'POST', url: 'https://kit.example/v1/feedback' });
    expect(t.requests[0]!.headers).to.include({ authorization: 'Bearer kit_pub_x', 'kit-session': 'kit_ses_1', 'content-type': 'application/json' });
    expect(JSON.parse(t.requests[0]!.body!)).to.deep.equal({ message_id: 'req_abcdefgh', rating: 'down', comment: 'wrong' });
  });

  it('renews a session the server no longer knows, once', async () => {
    const client = fakeClient();
    const refused = () => json(401, { error: { code: 'session_required', message: 'expired', request_id: 'req_1' } });
    const t = transport([refused, () => json(200, { comment_stored: false })]);
    expect(await sendFeedback(client, t, 'kit_pub_x', { message_id: 'msg_abcdefgh', rating: 'up' })).to.deep.equal({ commentStored: false });
    expect(t.requests.map((r) => r.headers['kit-session'])).to.deep.equal(['kit_ses_1', 'kit_ses_2']);
    expect(client.asked).to.deep.equal([undefined, 'kit_ses_1']);

    const twice = transport([refused, refused]);
    const err = await sendFeedback(fakeClient(), twice, 'kit_pub_x', { message_id: 'msg_abcdefgh', rating: 'up' }).then(() => null, (e: unknown) => e);
    expect(isKitError(err) && err.code).to.equal('session_required');
    expect(twice.requests).to.have.length(2);
  });

  it('passes other errors through with their code (rate_limited with its wait)', async () => {
    const t = transport([() => ({ status: 429, headers: { 'retry-after': '30' }, body: JSON.stringify({ error: { code: 'rate_limited', message: 'slow down', request_id: 'req_2' } }) })]);
    const err = await sendFeedback(fakeClient(), t, 'kit_pub_x', { message_id: 'msg_abcdefgh', rating: 'up' }).then(() => null, (e: unknown) => e);
    expect(isKitError(err) && err.code).to.equal('rate_limited');
    expect(isKitError(err) && err.details?.retry_after_seconds).to.equal(30);
  });
});
