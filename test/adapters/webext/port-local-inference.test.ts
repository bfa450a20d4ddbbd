import { expect } from 'chai';
import { createWebLlmInference, unloadWebLlmEngines } from '../../../adapters/webllm/create-web-llm-inference.js';
import { createLocalInferenceHost, createPortLocalEngine, type HostEngineLoader } from '../../../adapters/webext/port-local-inference.js';
import { servePortStream } from '../../../adapters/webext/port-stream.js';
import { KitError } from '../../../core/errors/index.js';
import type { InferenceEvent, InferenceRequest } from '../../../core/ports/inference.port.js';
import { createFakeLocalEngine, createFakeLocalLoader, type FakeLocalEngine } from '../../fakes/fake-local-inference.js';
import { connectTo } from './runtime-port-pair.js';

const REQUEST: InferenceRequest = {
  question: 'How much is the Pro plan?',
  history: [],
  sources: [{ url: 'https://shop.example/pricing', title: 'Pricing', text: 'The Pro plan costs 29 euros per month. It includes support.' }],
};

/** The real WebLLM adapter (prompt, citations, cache, abort) around a fake engine: what the offscreen document runs. */
function hostWith(engine: () => FakeLocalEngine, loaderOptions: Parameters<typeof createFakeLocalLoader>[0] = {}) {
  const loads: string[] = [];
  const load: HostEngineLoader = (request) => {
    loads.push(request.size);
    return createWebLlmInference({ ...request, loader: createFakeLocalLoader({ ...loaderOptions, engine }) });
  };
  const localEngine = createPortLocalEngine({ connect: connectTo((port) => servePortStream(port, createLocalInferenceHost(load))) });
  return { localEngine, loads };
}

async function collect(events: AsyncIterable<InferenceEvent>): Promise<InferenceEvent[]> {
  const out: InferenceEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('createPortLocalEngine over createLocalInferenceHost', () => {
  afterEach(async () => { await unloadWebLlmEngines(); });

  it('loads the model with growing progress and answers with deltas, a citation and done, when the host engine works', async () => {
    const engine = createFakeLocalEngine();
    const { localEngine } = hostWith(() => engine, { steps: 3 });
    const progress: number[] = [];
    const port = await localEngine({ size: 'nano', shaderF16: true, onProgress: (p) => progress.push(p.loaded / p.total), signal: new AbortController().signal });
    expect(port.model).to.equal('SmolLM2-360M-Instruct-q4f16_1-MLC');
    expect(progress.length).to.be.greaterThan(2);
    expect(progress).to.deep.equal([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).to.equal(1);
    const events = await collect(port.answer(REQUEST));
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).to.equal('The Pro plan costs 29 euros per month. [1]');
    expect(events).to.deep.include({ type: 'citation', index: 1 });
    expect(events.at(-1)).to.deep.include({ type: 'done', finishReason: 'stop' });
    // The grounded prompt was built in the host, from the sources the content script sent.
    expect(engine.requests[0]!.messages[0]!.content).to.contain('The Pro plan costs 29 euros per month.');
  });

  it('reuses the loaded engine for a second tab when the same model is asked for', async () => {
    let created = 0;
    const { localEngine } = hostWith(() => { created++; return createFakeLocalEngine(); });
    const signal = new AbortController().signal;
    const a = await localEngine({ size: 'small', shaderF16: false, onProgress: () => undefined, signal });
    const b = await localEngine({ size: 'small', shaderF16: false, onProgress: () => undefined, signal });
    await collect(a.answer(REQUEST));
    await collect(b.answer(REQUEST));
    expect(created).to.equal(1);
  });

  it('interrupts the generation when the caller aborts an answer', async () => {
    const engine = createFakeLocalEngine({ pieceDelayMs: 20, answer: 'one two three four five six seven eight nine ten eleven twelve' });
    const { localEngine } = hostWith(() => engine);
    const port = await localEngine({ size: 'nano', shaderF16: true, onProgress: () => undefined, signal: new AbortController().signal });
    const controller = new AbortController();
    const reason = new DOMException('stop', 'AbortError');
    const seen: InferenceEvent[] = [];
    const err = await (async () => {
      try {
        for await (const e of port.answer({ ...REQUEST, signal: controller.signal })) {
          seen.push(e);
          if (seen.length === 2) controller.abort(reason);
        }
      } catch (e) { return e; }
      return null;
    })();
    expect(err).to.equal(reason);
    const end = Date.now() + 2_000;
    while (engine.interrupts === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(engine.interrupts).to.be.greaterThan(0);
  });

  it('rejects with model_load_failed when the host cannot load the model', async () => {
    const { localEngine } = hostWith(() => createFakeLocalEngine(), { failWith: new KitError('model_load_failed', 'The weights could not be downloaded.') });
    const err = await localEngine({ size: 'nano', shaderF16: true, onProgress: () => undefined, signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(KitError);
    expect(err).to.include({ code: 'model_load_failed', message: 'The weights could not be downloaded.' });
  });

  it('rejects with the reason and stops the download when the caller aborts the load', async () => {
    const { localEngine } = hostWith(() => createFakeLocalEngine(), { steps: 50, stepDelayMs: 20 });
    const controller = new AbortController();
    const reason = new DOMException('tab closed', 'AbortError');
    const pending = localEngine({ size: 'nano', shaderF16: true, onProgress: () => controller.abort(reason), signal: controller.signal });
    expect(await pending.catch((e: unknown) => e)).to.equal(reason);
  });

  it('refuses an unknown model size before contacting the host', async () => {
    const { localEngine, loads } = hostWith(() => createFakeLocalEngine());
    const err = await localEngine({ size: 'huge', shaderF16: true, onProgress: () => undefined, signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(err).to.include({ code: 'model_load_failed' });
    expect(loads).to.deep.equal([]);
  });
});
