import { expect } from 'chai';
import { normalizeConfig } from '../../core/config/index.js';
import { KitError } from '../../core/errors/index.js';
import { formatKey } from '../../core/keys/key-format.js';
import type { Assistant, StartAssistant } from '../../sdk/assistant.js';
import { createInstance } from '../../sdk/instance.js';
import type { Answer, KitEvents } from '../../sdk/types.js';

const KEY = formatKey('publishable', Uint8Array.from({ length: 32 }, (_, i) => i + 7));
const config = (extra: Record<string, unknown> = {}) => normalizeConfig({ apiKey: KEY, ...extra }).config;
const READY: KitEvents['ready'] = { mode: 'remote', model: 'extractive', context: { pages: 1, chars: 100, truncated: false, cut: { pages: 0, chars: 0 } } };

/** An in-memory assistant: the instance's lifecycle is what these tests are about, not the engines. */
function fakeAssistant(ask: (q: string) => Promise<Answer>, votes: Array<[string, string, string | undefined]> = []): { start: () => Promise<StartAssistant>; destroyed: () => boolean } {
  let destroyed = false;
  const assistant: Assistant = {
    ready: READY,
    settings: null,
    ask: (q) => ask(q),
    feedback: async (id, rating, comment) => { votes.push([id, rating, comment]); return { commentStored: comment !== undefined }; },
    destroy: () => { destroyed = true; },
  };
  return { start: async () => async () => assistant, destroyed: () => destroyed };
}
const answer = (text: string): Answer => ({ text, citations: [], refused: false, mode: 'remote', model: 'extractive' });

describe('createInstance (headless)', () => {
  it('reports rate_limited with the retry time on error events', async () => {
    const f = fakeAssistant(async () => { throw new KitError('rate_limited', 'Too many requests; retry later.', { details: { retry_after_seconds: 17 } }); });
    const inst = createInstance(config(), { widget: false }, f.start);
    const errors: KitEvents['error'][] = [];
    inst.on('error', (e) => errors.push(e));
    const outcome = await inst.ask('How much?').then(() => 'answered', (e: KitError) => e.code);
    expect(outcome).to.equal('rate_limited');
    expect(errors).to.deep.equal([{ code: 'rate_limited', message: 'Too many requests; retry later.', retryAfterSeconds: 17 }]);
    inst.destroy();
  });

  it('answers two asks at once one after the other, in call order', async () => {
    const order: string[] = [];
    const f = fakeAssistant(async (q) => { order.push(`start ${q}`); await new Promise((r) => setTimeout(r, q === 'a' ? 30 : 1)); order.push(`end ${q}`); return answer(q); });
    const inst = createInstance(config(), { widget: false }, f.start);
    const [a, b] = await Promise.all([inst.ask('a'), inst.ask('b')]);
    expect([a.text, b.text]).to.deep.equal(['a', 'b']);
    expect(order).to.deep.equal(['start a', 'end a', 'start b', 'end b']);
    inst.destroy();
  });

  it('rejects asks after destroy with invalid_request and destroys the assistant', async () => {
    const f = fakeAssistant(async (q) => answer(q));
    const inst = createInstance(config(), { widget: false }, f.start);
    await inst.ask('warm up');
    inst.destroy();
    inst.destroy(); // idempotent
    expect(f.destroyed()).to.equal(true);
    const code = await inst.ask('again').then(() => 'answered', (e: KitError) => e.code);
    expect(code).to.equal('invalid_request');
  });

  it('refuses empty, oversized and already-aborted questions before any work', async () => {
    let asked = 0;
    const inst = createInstance(config(), { widget: false }, fakeAssistant(async (q) => { asked++; return answer(q); }).start);
    const codes = await Promise.all([
      inst.ask('   ').catch((e: KitError) => e.code),
      inst.ask('x'.repeat(5_000)).catch((e: KitError) => e.code),
      inst.ask('ok', { signal: AbortSignal.abort() }).catch((e: KitError) => e.code),
    ]);
    expect(codes).to.deep.equal(['invalid_request', 'payload_too_large', 'network_error']);
    expect(asked).to.equal(0);
    inst.destroy();
  });

  it('fires onReady and onMessage from the config like on()', async () => {
    const seen: string[] = [];
    const inst = createInstance(config({ onReady: () => seen.push('ready'), onMessage: (m: { role: string }) => seen.push(m.role) }), { widget: false }, fakeAssistant(async (q) => answer(q)).start);
    await inst.ask('hello');
    expect(seen).to.deep.equal(['ready', 'user', 'assistant']);
    inst.destroy();
  });

  it('sends feedback on an answer by its id, and refuses a malformed id or rating', async () => {
    const votes: Array<[string, string, string | undefined]> = [];
    const f = fakeAssistant(async (q) => ({ ...answer(q), id: 'req_abcdefghijkl' }), votes);
    const inst = createInstance(config(), { widget: false }, f.start);
    const messages: KitEvents['message'][] = [];
    inst.on('message', (m) => messages.push(m));
    const a = await inst.ask('How much?');
    expect(a.id).to.equal('req_abcdefghijkl');
    expect(messages.at(-1)!.id).to.equal('req_abcdefghijkl');
    expect(await inst.feedback(a.id!, 'down', { comment: '  wrong price  ' })).to.deep.equal({ commentStored: true });
    expect(votes).to.deep.equal([['req_abcdefghijkl', 'down', 'wrong price']]);
    const bad = await inst.feedback('nope', 'up').then(() => 'sent', (e: KitError) => e.code);
    expect(bad).to.equal('invalid_request');
    const badRating = await inst.feedback(a.id!, 'meh' as 'up').then(() => 'sent', (e: KitError) => e.code);
    expect(badRating).to.equal('invalid_request');
    inst.destroy();
  });
});
