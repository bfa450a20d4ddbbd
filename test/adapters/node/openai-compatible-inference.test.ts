import { expect } from 'chai';
import { createOpenAiCompatibleInference, type OpenAiCompatibleInferenceOptions } from '../../../adapters/node/openai-compatible-inference.js';
import { isKitError, type KitError } from '../../../core/errors/index.js';
import type { InferenceEvent, InferenceRequest } from '../../../core/ports/inference.port.js';
import { FakeOpenAiServer } from '../../fakes/openai-compatible-server.js';

const SOURCES = [
  { url: 'https://example.com/pricing', title: 'Pricing', text: 'The Pro plan costs $20 per month.' },
  { url: 'https://example.com/faq', title: 'FAQ', text: 'Business adds SSO.' },
];
const REQUEST: InferenceRequest = { question: 'How much is Pro?', history: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }], sources: SOURCES };

async function collect(iterable: AsyncIterable<InferenceEvent>): Promise<{ events: InferenceEvent[]; error: unknown }> {
  const events: InferenceEvent[] = [];
  try {
    for await (const e of iterable) events.push(e);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

function text(events: readonly InferenceEvent[]): string {
  return events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
}

describe('createOpenAiCompatibleInference', () => {
  let fake: FakeOpenAiServer;
  let baseUrl: string;
  const make = (extra: Partial<OpenAiCompatibleInferenceOptions> = {}) =>
    createOpenAiCompatibleInference({ baseUrl, model: 'qwen2.5-7b-instruct', apiKey: 'sk-upstream-secret', ...extra });

  beforeEach(async () => {
    fake = new FakeOpenAiServer();
    baseUrl = await fake.start();
  });
  afterEach(async () => {
    await fake.stop();
  });

  it('sends a grounded streaming request with numbered sources, history and usage requested', async () => {
    fake.script = { steps: [{ content: 'Ok' }, { finish: 'stop' }, { done: true }] };
    await collect(make({ maxOutputTokens: 300 }).answer(REQUEST));
    const call = fake.calls[0];
    expect(call?.headers.authorization).to.equal('Bearer sk-upstream-secret');
    expect(call?.body).to.include({ model: 'qwen2.5-7b-instruct', stream: true, max_tokens: 300 });
    expect(call?.body.stream_options).to.deep.equal({ include_usage: true });
    const messages = call?.body.messages as Array<{ role: string; content: string }>;
    expect(messages.map((m) => m.role)).to.deep.equal(['system', 'user', 'assistant', 'user']);
    expect(messages[0]?.content).to.include('[1] Pricing\nURL: https://example.com/pricing\nThe Pro plan costs $20 per month.');
    expect(messages[0]?.content).to.include('[2] FAQ');
    expect(messages[0]?.content).to.match(/square brackets/);
    expect(messages[3]?.content).to.equal('How much is Pro?');
  });

  it('trims the sources to the configured context window', async () => {
    fake.script = { steps: [{ finish: 'stop' }, { done: true }] };
    const long = { ...REQUEST, sources: [{ url: 'https://example.com/a', title: 'A', text: 'word '.repeat(20_000) }] };
    await collect(make({ contextWindowTokens: 2048, maxOutputTokens: 256 }).answer(long));
    const sent = fake.calls[0]?.body.messages as Array<{ content: string }>;
    expect(sent.map((m) => m.content).join('').length).to.be.below(2048 * 3);
  });

  it('drops a marker that names no source and keeps the rest', async () => {
    fake.script = { steps: [{ content: 'Yes [7] and [2].' }, { finish: 'stop' }, { done: true }] };
    const { events } = await collect(make().answer(REQUEST));
    expect(text(events)).to.equal('Yes  and [2].');
    expect(events.filter((e) => e.type === 'citation')).to.deep.equal([{ type: 'citation', index: 2 }]);
  });

  it('streams deltas and citations and reports the usage of the final chunk', async () => {
    fake.script = {
      steps: [{ content: 'Pro costs' }, { content: ' $20 [' }, { content: '1' }, { content: '] per month' }, { content: '.' }, { finish: 'stop' }, { usage: { prompt_tokens: 123, completion_tokens: 9 } }, { done: true }],
    };
    const { events, error } = await collect(make().answer(REQUEST));
    expect(error).to.equal(undefined);
    // Markers stay in the text as [n] (like the local engine); the split "[", "1", "]" comes out whole.
    expect(text(events)).to.equal('Pro costs $20 [1] per month.');
    expect(events.filter((e) => e.type === 'citation')).to.deep.equal([{ type: 'citation', index: 1 }]);
    const citationAt = events.findIndex((e) => e.type === 'citation');
    expect(text(events.slice(0, citationAt))).to.equal('Pro costs $20 [1]');
    expect(events.at(-1)).to.deep.equal({ type: 'done', finishReason: 'stop', usage: { inputTokens: 123, outputTokens: 9 } });
    expect(fake.calls[0]?.clientClosed).to.equal(false);
  });

  it('estimates usage when the backend sends none, and reports a length finish', async () => {
    fake.script = { steps: [{ content: 'x'.repeat(40) }, { finish: 'length' }, { done: true }] };
    const { events } = await collect(make().answer(REQUEST));
    const done = events.at(-1);
    expect(done?.type).to.equal('done');
    if (done?.type !== 'done') return;
    expect(done.finishReason).to.equal('length');
    expect(done.usage.outputTokens).to.equal(10);
    const sent = fake.calls[0]?.body.messages as Array<{ content: string }>;
    const prompt = sent.map((m) => m.content).join('\n');
    expect(done.usage.inputTokens).to.equal(Math.ceil(prompt.length / 4));
  });

  it('yields what came, then throws upstream_unavailable when the backend sends an error chunk mid-stream', async () => {
    fake.script = { steps: [{ content: 'Pro' }, { content: ' costs' }, { error: 'CUDA out of memory while reading: The Pro plan costs' }] };
    const { events, error } = await collect(make().answer(REQUEST));
    expect(text(events)).to.equal('Pro costs');
    expect(events.some((e) => e.type === 'done')).to.equal(false);
    expect(isKitError(error) && error.code).to.equal('upstream_unavailable');
    expect((error as Error).message).not.to.include('The Pro plan');
  });

  it('throws upstream_unavailable when the connection breaks mid-stream', async () => {
    fake.script = { steps: [{ content: 'Pro' }, { delayMs: 20 }, { destroy: true }] };
    const { events, error } = await collect(make().answer(REQUEST));
    expect(text(events)).to.equal('Pro');
    expect(isKitError(error) && error.code).to.equal('upstream_unavailable');
  });

  it('throws upstream_unavailable when the stream ends without [DONE] or a finish reason', async () => {
    fake.script = { steps: [{ content: 'Pro' }] };
    const { error } = await collect(make().answer(REQUEST));
    expect(isKitError(error) && error.code).to.equal('upstream_unavailable');
  });

  it('times out and closes the upstream connection when the first token is slow', async () => {
    fake.script = { steps: [{ delayMs: 2000 }, { content: 'late' }, { finish: 'stop' }, { done: true }] };
    const started = Date.now();
    const { events, error } = await collect(make({ timeouts: { firstTokenMs: 150 } }).answer(REQUEST));
    expect(Date.now() - started).to.be.below(1000);
    expect(events).to.deep.equal([]);
    expect(isKitError(error) && error.code).to.equal('upstream_unavailable');
    expect((error as KitError).details).to.deep.equal({ timeout: 'first_token' });
    await fake.calls[0]?.closed;
    expect(fake.calls[0]?.clientClosed).to.equal(true);
  });

  it('times out when headers do not come within connectMs', async () => {
    fake.script = { headersDelayMs: 2000, steps: [] };
    const { error } = await collect(make({ timeouts: { connectMs: 100 } }).answer(REQUEST));
    expect((error as KitError).details).to.deep.equal({ timeout: 'connect' });
  });

  it('times out when tokens stop flowing for longer than idleMs', async () => {
    fake.script = { steps: [{ content: 'Pro' }, { delayMs: 2000 }, { content: ' costs' }] };
    const { events, error } = await collect(make({ timeouts: { idleMs: 150 } }).answer(REQUEST));
    expect(text(events)).to.equal('Pro');
    expect((error as KitError).details).to.deep.equal({ timeout: 'idle' });
  });

  it('times out when the whole answer takes longer than totalMs, even while tokens flow', async () => {
    const steps = Array.from({ length: 40 }, (_, i) => [{ content: `t${i} ` }, { delayMs: 20 }]).flat();
    fake.script = { steps: [...steps, { finish: 'stop' }, { done: true }] };
    const { error } = await collect(make({ timeouts: { totalMs: 250, idleMs: 200 } }).answer(REQUEST));
    expect((error as KitError).details).to.deep.equal({ timeout: 'total' });
  });

  it('cancels upstream and rejects with the abort reason when the request signal aborts', async () => {
    fake.script = { steps: [{ content: 'Pro' }, { delayMs: 5000 }, { content: ' costs' }, { finish: 'stop' }, { done: true }] };
    const ac = new AbortController();
    const reason = new Error('visitor left');
    const events: InferenceEvent[] = [];
    let error: unknown;
    try {
      for await (const e of make().answer({ ...REQUEST, signal: ac.signal })) {
        events.push(e);
        ac.abort(reason);
      }
    } catch (err) {
      error = err;
    }
    expect(error).to.equal(reason);
    expect(text(events)).to.equal('Pro');
    await fake.calls[0]?.closed;
    expect(fake.calls[0]?.clientClosed).to.equal(true);
  });

  it('closes the upstream connection when the consumer stops iterating', async () => {
    fake.script = { steps: [{ content: 'Pro' }, { delayMs: 5000 }, { done: true }] };
    for await (const e of make().answer(REQUEST)) {
      expect(e).to.deep.equal({ type: 'delta', text: 'Pro' });
      break;
    }
    await fake.calls[0]?.closed;
    expect(fake.calls[0]?.clientClosed).to.equal(true);
  });

  it('throws upstream_unavailable with the status and without the api key when the backend refuses', async () => {
    fake.script = { status: 401 };
    const { error } = await collect(make().answer(REQUEST));
    expect(isKitError(error) && error.code).to.equal('upstream_unavailable');
    expect((error as KitError).details).to.deep.equal({ upstream_status: 401 });
    expect((error as Error).message).not.to.include('sk-upstream-secret');
  });

  it('throws upstream_unavailable when nothing listens at the base URL', async () => {
    const { error } = await collect(make({ baseUrl: 'http://127.0.0.1:1/v1' }).answer(REQUEST));
    expect(isKitError(error) && error.code).to.equal('upstream_unavailable');
  });

  it('omits the authorization header when no api key is set and accepts CRLF framing', async () => {
    fake.script = { steps: [{ raw: 'data: {"choices":[{"index":0,"delta":{"content":"Hi [2]"},"finish_reason":null}]}\r\n\r\n' }, { finish: 'stop' }, { done: true }] };
    const { events } = await collect(createOpenAiCompatibleInference({ baseUrl, model: 'llama' }).answer(REQUEST));
    expect(fake.calls[0]?.headers.authorization).to.equal(undefined);
    expect(text(events)).to.equal('Hi [2]');
    expect(events.filter((e) => e.type === 'citation')).to.deep.equal([{ type: 'citation', index: 2 }]);
  });
});
