import { expect } from 'chai';
import { normalizeConfig } from '../../core/config/index.js';
import { KitError } from '../../core/errors/index.js';
import { formatKey } from '../../core/keys/key-format.js';
import type { Assistant, StartAssistant } from '../../sdk/assistant.js';
import { createInstance } from '../../sdk/instance.js';
import type { Answer, KitEvents } from '../../sdk/types.js';
import type { ChatTurn } from '../../core/ports/inference.port.js';

const KEY = formatKey('publishable', Uint8Array.from({ length: 32 }, (_, i) => i + 7));
const config = (extra: Record<string, unknown> = {}) => normalizeConfig({ apiKey: KEY, ...extra }).config;
const READY: KitEvents['ready'] = { mode: 'remote', model: 'extractive', context: { pages: 1, chars: 100, truncated: false, cut: { pages: 0, chars: 0 } } };

/** An in-memory assistant: the instance's lifecycle is what these tests are about, not the engines. */
function fakeAssistant(ask: (q: string, history: readonly ChatTurn[]) => Promise<Answer>, votes: Array<[string, string, string | undefined]> = [], conversation?: { id: () => string | undefined }): { start: () => Promise<StartAssistant>; destroyed: () => boolean } {
  let destroyed = false;
  const assistant: Assistant = {
    ready: READY,
    ask: (q, history) => ask(q, history),
    feedback: async (id, rating, comment) => { votes.push([id, rating, comment]); return { commentStored: comment !== undefined }; },
    destroy: () => { destroyed = true; },
  };
  return {
    start: async () => async (_config, _host, hooks) => {
      if (conversation) conversation.id = () => hooks.conversationId?.();
      return assistant;
    },
    destroyed: () => destroyed,
  };
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

  it('reads the page only on the first sign of use: ask(), feedback() or a ready listener (issue 12 §6)', async () => {
    const tick = () => new Promise((r) => setTimeout(r, 20));
    /** A runtime that records when the instance lets it read the page, and the owner's settings hook. */
    const gated = () => {
      const log: string[] = [];
      const start: StartAssistant = async (_config, _host, hooks) => {
        hooks.settings?.(null);
        log.push('config');
        await hooks.read;
        log.push('read');
        return { ready: READY, ask: async (q) => answer(q), feedback: async () => ({ commentStored: false }), destroy: () => undefined };
      };
      return { log, start: async () => start };
    };
    // Nobody uses it: GET /config only, no reading, no ready.
    const idle = gated();
    const quiet = createInstance(config(), { widget: false }, idle.start);
    let readyQuiet = false;
    await tick();
    expect(idle.log).to.deep.equal(['config']);
    // A ready listener reads the page at once (a host waiting for ready gets it as before).
    quiet.on('ready', () => { readyQuiet = true; });
    await tick();
    expect(idle.log).to.deep.equal(['config', 'read']);
    expect(readyQuiet).to.equal(true);
    quiet.destroy();
    // ask() reads the page first, then answers.
    const asked = gated();
    const inst = createInstance(config(), { widget: false }, asked.start);
    await tick();
    expect(asked.log).to.deep.equal(['config']);
    expect((await inst.ask('Where?')).text).to.equal('Where?');
    expect(asked.log).to.deep.equal(['config', 'read']);
    inst.destroy();
    // feedback() too (an answer id kept from an earlier page view), and the onReady option like a listener.
    const voted = gated();
    const third = createInstance(config(), { widget: false }, voted.start);
    await third.feedback('msg_abcdefghijkl', 'up');
    expect(voted.log).to.deep.equal(['config', 'read']);
    third.destroy();
    const eager = gated();
    let readyOption = false;
    const fourth = createInstance(config({ onReady: () => { readyOption = true; } }), { widget: false }, eager.start);
    await tick();
    expect([eager.log, readyOption]).to.deep.equal([['config', 'read'], true]);
    fourth.destroy();
  });

  it('fires onReady and onMessage from the config like on()', async () => {
    const seen: string[] = [];
    const inst = createInstance(config({ onReady: () => seen.push('ready'), onMessage: (m: { role: string }) => seen.push(m.role) }), { widget: false }, fakeAssistant(async (q) => answer(q)).start);
    await inst.ask('hello');
    // The question's message comes as it is asked, before the page is read (the widget shows it at once).
    expect(seen).to.deep.equal(['user', 'ready', 'assistant']);
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

/** A Web Storage in memory, installed as the global the SDK reads (Node has none). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() { return m.size; },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => { m.delete(k); },
    setItem: (k, v) => { m.set(k, String(v)); },
  };
}

describe('createInstance conversations', () => {
  const g = globalThis as { sessionStorage?: Storage; localStorage?: Storage };
  beforeEach(() => {
    g.sessionStorage = memoryStorage();
    g.localStorage = memoryStorage();
  });
  afterEach(() => {
    delete g.sessionStorage;
    delete g.localStorage;
  });

  it('sends the answered turns with a follow-up, without refusals and without old citation markers', async () => {
    const seen: ChatTurn[][] = [];
    const f = fakeAssistant(async (q, history) => {
      seen.push([...history]);
      if (q.includes('weather')) return { ...answer('Sorry, only this page.'), refused: true };
      return { ...answer(`About ${q} [1].`), citations: [{ url: 'https://x.example/', title: 'X' }] };
    });
    const inst = createInstance(config(), { widget: false }, f.start);
    await inst.ask('pricing');
    await inst.ask('the weather');
    await inst.ask('and shipping?');
    expect(seen[2]).to.deep.equal([{ role: 'user', content: 'pricing' }, { role: 'assistant', content: 'About pricing.' }]);
    inst.destroy();
  });

  it("keeps the thread and its conversation id across instances with persist 'session' (a reload)", async () => {
    const conversation: { id: () => string | undefined } = { id: () => undefined };
    const first = createInstance(config(), { widget: false }, fakeAssistant(async (q) => answer(`A: ${q}`), [], conversation).start);
    await first.ask('one');
    const id = first.conversationId;
    expect(id).to.match(/^cnv_[0-9A-Za-z]{24}$/);
    expect(conversation.id()).to.equal(id);
    first.destroy();
    const seen: ChatTurn[][] = [];
    const second = createInstance(config(), { widget: false }, fakeAssistant(async (q, h) => { seen.push([...h]); return answer(`A: ${q}`); }).start);
    expect(second.conversationId).to.equal(id);
    await second.ask('two');
    expect(seen[0]).to.deep.equal([{ role: 'user', content: 'one' }, { role: 'assistant', content: 'A: one' }]);
    second.destroy();
  });

  it("keeps nothing with persist 'none', and 'local' survives the tab (localStorage)", async () => {
    const none = createInstance(config({ persist: 'none' }), { widget: false }, fakeAssistant(async (q) => answer(q)).start);
    await none.ask('one');
    none.destroy();
    expect(g.sessionStorage!.length + g.localStorage!.length).to.equal(0);
    const local = createInstance(config({ persist: 'local' }), { widget: false }, fakeAssistant(async (q) => answer(q)).start);
    await local.ask('one');
    local.destroy();
    expect(g.localStorage!.length).to.equal(1);
    expect(g.sessionStorage!.length).to.equal(0);
  });

  it('starts over on newConversation: new id, no history sent, nothing kept', async () => {
    const seen: ChatTurn[][] = [];
    const inst = createInstance(config(), { widget: false }, fakeAssistant(async (q, h) => { seen.push([...h]); return answer(q); }).start);
    await inst.ask('one');
    const before = inst.conversationId;
    inst.newConversation();
    expect(inst.conversationId).to.not.equal(before);
    expect(g.sessionStorage!.length).to.equal(0);
    await inst.ask('two');
    expect(seen[1]).to.deep.equal([]);
    inst.destroy();
  });

  it('ignores a corrupt or foreign stored thread and starts a new one', async () => {
    g.sessionStorage!.setItem(`kit:thread:${KEY.slice(-12)}`, '{"id":"<script>","messages":[{"role":"user","text":1}]}');
    const inst = createInstance(config(), { widget: false }, fakeAssistant(async (q) => answer(q)).start);
    expect(inst.conversationId).to.match(/^cnv_/);
    inst.destroy();
  });
});
