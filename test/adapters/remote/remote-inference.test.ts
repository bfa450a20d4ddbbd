import { expect } from 'chai';
import { KitError } from '../../../core/errors/index.js';
import type { InferenceRequest } from '../../../core/ports/inference.port.js';
import { createAltchaSolver } from '../../../adapters/remote/altcha-solver.js';
import { createFetchTransport } from '../../../adapters/remote/fetch-transport.js';
import { createPlatformClient, type PlatformClient } from '../../../adapters/remote/platform-client.js';
import { createRemoteInference, type RemoteInferenceEvent } from '../../../adapters/remote/remote-inference.js';
import { FAKE_PUBLISHABLE_KEY, startFakePlatformApi, type FakePlatformApi, type SseFrame } from '../../fakes/platform-api-server.js';

const SOURCES = [
  { url: 'https://example.com/pricing', title: 'Pricing', text: 'Pro costs 20 €.' },
  { url: 'https://example.com/faq', title: 'FAQ', text: 'Refunds within 30 days.' },
];
const REQUEST: InferenceRequest = {
  question: 'How much is Pro?',
  history: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }],
  sources: SOURCES,
};
const START: SseFrame = { event: 'start', data: { request_id: 'req_1', model: 'llama-3.1-8b', mode: 'remote' } };
const DONE: SseFrame = { event: 'done', data: { finish_reason: 'stop', usage: { input_tokens: 12, output_tokens: 3 } } };

async function collect(events: AsyncIterable<RemoteInferenceEvent>): Promise<RemoteInferenceEvent[]> {
  const out: RemoteInferenceEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('createRemoteInference', () => {
  let api: FakePlatformApi;
  let client: PlatformClient;

  beforeEach(async () => {
    api = await startFakePlatformApi({ provider: 'none' });
    client = createPlatformClient({ baseUrl: api.url, apiKey: FAKE_PUBLISHABLE_KEY, transport: createFetchTransport(), solveChallenge: createAltchaSolver() });
  });

  afterEach(async () => {
    client.destroy();
    await api.close();
  });

  it('maps start, deltas, citations and done to inference events and ignores keep-alives', async () => {
    const engine = createRemoteInference(client);
    expect(engine.model).to.equal('auto');
    const events = await collect(engine.answer(REQUEST));
    expect(events).to.deep.equal([
      { type: 'start', requestId: 'req_fake' },
      { type: 'delta', text: 'The Pro plan ' },
      { type: 'delta', text: 'costs 20 €.' },
      { type: 'citation', index: 1 },
      { type: 'done', finishReason: 'stop', usage: { inputTokens: 42, outputTokens: 7 } },
    ]);
    expect(engine.model).to.equal('fake-remote-1');
  });

  it('sends the history, the question, the sources and the model as the contract body', async () => {
    await collect(createRemoteInference(client, { model: 'balanced', context: () => ({ pageUrl: 'https://shop.example/pricing', conversationId: 'cnv_abc' }) }).answer(REQUEST));
    const chat = api.requests.find((r) => r.path === '/chat');
    expect(chat?.body).to.deep.equal({
      messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'How much is Pro?' }],
      sources: SOURCES,
      model: 'balanced',
      page_url: 'https://shop.example/pricing',
      conversation_id: 'cnv_abc',
      stream: true,
    });
    expect(chat?.headers['kit-session']).to.equal(api.issued[0]);
    expect(chat?.headers.accept).to.equal('text/event-stream');
  });

  it('delivers a refusal as a refusal event, not as an answer', async () => {
    api.script('POST /chat', { stream: [START, { event: 'refusal', data: { message: 'I can only answer about this page.' } }, { event: 'done', data: { finish_reason: 'refused', usage: { input_tokens: 0, output_tokens: 0 } } }] });
    const events = await collect(createRemoteInference(client).answer(REQUEST));
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'refusal', 'done']);
    expect(events[1]).to.deep.equal({ type: 'refusal', message: 'I can only answer about this page.' });
  });

  it('throws the server code and request id of an error event mid-stream, after the deltas before it', async () => {
    api.script('POST /chat', { stream: [START, { event: 'delta', data: { text: 'Par' } }, { event: 'error', data: { error: { code: 'upstream_unavailable', message: 'The model timed out.', request_id: 'req_9' } } }] });
    const seen: RemoteInferenceEvent[] = [];
    let caught: unknown;
    try {
      for await (const e of createRemoteInference(client).answer(REQUEST)) seen.push(e);
    } catch (err) {
      caught = err;
    }
    expect(seen).to.deep.equal([{ type: 'start', requestId: 'req_1' }, { type: 'delta', text: 'Par' }]);
    expect(caught).to.be.instanceOf(KitError);
    expect(caught).to.include({ code: 'upstream_unavailable', message: 'The model timed out.' });
    expect((caught as KitError).details).to.deep.equal({ request_id: 'req_9' });
  });

  it('drops citations outside the sources and repeated ones', async () => {
    api.script('POST /chat', { stream: [START, { event: 'citation', data: { index: 2 } }, { event: 'citation', data: { index: 3 } }, { event: 'citation', data: { index: 0 } }, { event: 'citation', data: { index: 2 } }, DONE] });
    const events = await collect(createRemoteInference(client).answer(REQUEST));
    expect(events.filter((e) => e.type === 'citation')).to.deep.equal([{ type: 'citation', index: 2 }]);
  });

  it('ignores events it does not know', async () => {
    api.script('POST /chat', { stream: [START, { event: 'thinking', data: 'not json at all' }, { event: 'delta', data: { text: 'Ok' } }, DONE] });
    const events = await collect(createRemoteInference(client).answer(REQUEST));
    expect(events.map((e) => e.type)).to.deep.equal(['start', 'delta', 'done']);
  });

  it('fails with network_error when the stream ends without done', async () => {
    api.script('POST /chat', { stream: [START, { event: 'delta', data: { text: 'Par' } }] });
    let caught: unknown;
    try {
      await collect(createRemoteInference(client).answer(REQUEST));
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(KitError).with.property('code', 'network_error');
  });

  it('rejects with the abort reason and closes the connection when the request signal aborts', async () => {
    api.script('POST /chat', { stream: [START, { event: 'delta', data: { text: 'Par' } }, { hang: true }] });
    const controller = new AbortController();
    const closed = api.waitForChatClose();
    let caught: unknown;
    try {
      for await (const e of createRemoteInference(client).answer({ ...REQUEST, signal: controller.signal })) {
        if (e.type === 'delta') controller.abort(new DOMException('Stopped by the visitor.', 'AbortError'));
      }
    } catch (err) {
      caught = err;
    }
    expect(caught).to.have.property('message', 'Stopped by the visitor.');
    await closed;
  });
});
