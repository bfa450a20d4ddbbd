import { expect } from 'chai';
import { createWebLlmInference, unloadWebLlmEngines } from '../../../adapters/webllm/create-web-llm-inference.js';
import { cachedEngineIds } from '../../../adapters/webllm/engine-cache.js';
import type { LoadProgress } from '../../../adapters/webllm/local-engine.js';
import { WEBLLM_MODELS } from '../../../adapters/webllm/model-catalog.js';
import { KitError } from '../../../core/errors/index.js';
import type { InferenceEvent, InferenceRequest } from '../../../core/ports/inference.port.js';
import { collectAnswer, createFakeLocalEngine, createFakeLocalLoader } from '../../fakes/fake-local-inference.js';

const sources = [
  { url: 'https://shop.example/shipping', title: 'Shipping', text: 'Orders ship within 2 days. Returns are free.' },
  { url: 'https://shop.example/pricing', title: 'Pricing', text: 'The Trail tent costs $120.' },
];
const ask = (question: string, signal?: AbortSignal): InferenceRequest => ({ question, history: [], sources, signal });

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('createWebLlmInference', () => {
  afterEach(() => unloadWebLlmEngines());

  it('loads the f16 build with shader-f16 and the f32 build without it', async () => {
    const loader = createFakeLocalLoader();
    const f16 = await createWebLlmInference({ size: 'small', shaderF16: true, loader });
    const f32 = await createWebLlmInference({ size: 'small', shaderF16: false, loader });
    expect(loader.loads).to.deep.equal([WEBLLM_MODELS.small.f16, WEBLLM_MODELS.small.f32]);
    expect([f16.model, f32.model]).to.deep.equal([WEBLLM_MODELS.small.f16, WEBLLM_MODELS.small.f32]);
  });

  it('returns the same port and loads once when the same model is created again', async () => {
    const loader = createFakeLocalLoader();
    const first = await createWebLlmInference({ size: 'nano', shaderF16: true, loader });
    const second = await createWebLlmInference({ size: 'nano', shaderF16: true, loader: createFakeLocalLoader() });
    expect(second).to.equal(first);
    expect(loader.loads).to.have.length(1);
  });

  it('shares one load between creates that overlap and reports its progress to each', async () => {
    const loader = createFakeLocalLoader({ stepDelayMs: 5 });
    const a: LoadProgress[] = [];
    const b: LoadProgress[] = [];
    let twoSeen!: () => void;
    const joined = new Promise<void>((r) => (twoSeen = r));
    const pa = createWebLlmInference({ size: 'nano', shaderF16: true, loader, onProgress: (p) => a.push(p) === 2 && twoSeen() });
    await joined;
    const pb = createWebLlmInference({ size: 'nano', shaderF16: true, loader, onProgress: (p) => b.push(p) });
    const [x, y] = await Promise.all([pa, pb]);
    expect(x).to.equal(y);
    expect(loader.loads).to.have.length(1);
    for (const seen of [a, b]) {
      expect(seen.at(-1)).to.include({ loaded: 1, total: 1 });
      expect(seen.map((p) => p.loaded)).to.deep.equal([...seen.map((p) => p.loaded)].sort((m, n) => m - n));
    }
    expect(b.length).to.be.lessThan(a.length); // joined late: got the last report replayed, then the rest
    expect(b[0]!.loaded).to.be.greaterThan(0);
  });

  it('rejects only the caller that aborts while another still waits for the same load', async () => {
    const loader = createFakeLocalLoader({ stepDelayMs: 5 });
    const ctl = new AbortController();
    const pa = createWebLlmInference({ size: 'nano', shaderF16: true, loader, signal: ctl.signal });
    const pb = createWebLlmInference({ size: 'nano', shaderF16: true, loader });
    ctl.abort(new DOMException('stop', 'AbortError'));
    expect(await rejection(pa)).to.have.property('name', 'AbortError');
    expect((await pb).model).to.equal(WEBLLM_MODELS.nano.f16);
    expect(loader.signals[0]!.aborted).to.equal(false);
  });

  it('stops the download and caches nothing when the only caller aborts', async () => {
    const loader = createFakeLocalLoader({ stepDelayMs: 10 });
    const ctl = new AbortController();
    const progress: LoadProgress[] = [];
    const p = createWebLlmInference({ size: 'balanced', shaderF16: true, loader, signal: ctl.signal, onProgress: (x) => progress.push(x) });
    await new Promise((r) => setTimeout(r, 15));
    ctl.abort(new DOMException('user left', 'AbortError'));
    expect(await rejection(p)).to.have.property('message', 'user left');
    expect(loader.signals[0]!.aborted).to.equal(true);
    expect(cachedEngineIds()).to.deep.equal([]);
    const seen = progress.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(progress.length).to.equal(seen);
    await createWebLlmInference({ size: 'balanced', shaderF16: true, loader });
    expect(loader.loads).to.have.length(2);
  });

  it('passes a load failure through and tries again on the next create', async () => {
    const failure = new KitError('model_load_failed', 'The local model could not be loaded: 404');
    const failing = createFakeLocalLoader({ failWith: failure });
    expect(await rejection(createWebLlmInference({ size: 'quality', shaderF16: false, loader: failing }))).to.equal(failure);
    expect(cachedEngineIds()).to.deep.equal([]);
    const port = await createWebLlmInference({ size: 'quality', shaderF16: false, loader: createFakeLocalLoader() });
    expect(port.model).to.equal(WEBLLM_MODELS.quality.f32);
  });
});

describe('LocalInferencePort.answer', () => {
  afterEach(() => unloadWebLlmEngines());

  it('streams the answer with a citation per source used and the engine usage', async () => {
    const engine = createFakeLocalEngine({ answer: 'It ships within 2 days [1] and costs $120 [2, 1].' });
    const port = await createWebLlmInference({ size: 'nano', shaderF16: true, loader: createFakeLocalLoader({ engine }) });
    const events: InferenceEvent[] = [];
    for await (const e of port.answer(ask('When does it ship?'))) events.push(e);
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).to.equal('It ships within 2 days [1] and costs $120 [2][1].');
    expect(events.filter((e) => e.type === 'citation')).to.deep.equal([{ type: 'citation', index: 1 }, { type: 'citation', index: 2 }]);
    const done = events.at(-1)!;
    expect(done).to.deep.include({ type: 'done', finishReason: 'stop' });
    expect(done.type === 'done' && done.usage.outputTokens).to.be.greaterThan(5);
    expect(done.type === 'done' && done.usage.inputTokens).to.be.greaterThan(10);
    expect(engine.requests[0]!.messages[0]!.content).to.contain('[2] Pricing');
    expect(engine.requests[0]!.stream_options).to.deep.equal({ include_usage: true });
  });

  it('reports finish "length" when the answer hits maxOutputTokens', async () => {
    const port = await createWebLlmInference({ size: 'nano', shaderF16: true, loader: createFakeLocalLoader({ engine: createFakeLocalEngine({ answer: 'one two three four five six seven' }) }) });
    const { done } = await collectAnswer(port, { ...ask('q'), maxOutputTokens: 3 });
    expect(done).to.deep.include({ finishReason: 'length' });
  });

  it('interrupts the engine and rejects with the reason when the request is aborted mid-answer', async () => {
    const engine = createFakeLocalEngine({ answer: 'word '.repeat(40), pieceDelayMs: 2 });
    const port = await createWebLlmInference({ size: 'nano', shaderF16: true, loader: createFakeLocalLoader({ engine }) });
    const ctl = new AbortController();
    let deltas = 0;
    const err = await rejection(
      (async () => {
        for await (const e of port.answer(ask('q', ctl.signal))) {
          if (e.type === 'delta' && ++deltas === 3) ctl.abort(new DOMException('stop pressed', 'AbortError'));
        }
      })(),
    );
    expect(err).to.have.property('message', 'stop pressed');
    expect(engine.interrupts).to.equal(1);
    expect(deltas).to.be.lessThan(10);
    const next = await collectAnswer(port, ask('again'));
    expect(next.text).to.have.length.greaterThan(100); // the engine is still usable
  });

  it('runs asks one at a time and leaves the running one alone when a queued one is aborted', async () => {
    const engine = createFakeLocalEngine({ answer: 'a b c d e f g h [1]', pieceDelayMs: 3 });
    const port = await createWebLlmInference({ size: 'nano', shaderF16: true, loader: createFakeLocalLoader({ engine }) });
    const ctl = new AbortController();
    const first = collectAnswer(port, ask('first'));
    const second = collectAnswer(port, ask('second', ctl.signal));
    const third = collectAnswer(port, ask('third'));
    await new Promise((r) => setTimeout(r, 5));
    ctl.abort(new DOMException('never mind', 'AbortError'));
    expect(await rejection(second)).to.have.property('message', 'never mind');
    const [a, c] = await Promise.all([first, third]);
    expect(a.text).to.equal('a b c d e f g h [1]');
    expect(c.text).to.equal('a b c d e f g h [1]');
    expect(engine.interrupts).to.equal(0);
    expect(engine.requests.map((r) => r.messages.at(-1)!.content)).to.deep.equal(['first', 'third']);
  });

  it('fails with model_load_failed and unloads the engine when the model breaks while answering', async () => {
    const engine = createFakeLocalEngine({ failWith: Object.assign(new Error('Device was lost'), { name: 'DeviceLostError' }) });
    const port = await createWebLlmInference({ size: 'nano', shaderF16: true, loader: createFakeLocalLoader({ engine }) });
    const err = await rejection(collectAnswer(port, ask('q')));
    expect(err).to.be.instanceOf(KitError);
    expect(err).to.include({ code: 'model_load_failed' });
    expect((err as KitError).cause).to.have.property('name', 'DeviceLostError');
    expect(engine.unloaded).to.equal(true);
    expect(cachedEngineIds()).to.deep.equal([]);
    expect(await rejection(collectAnswer(port, ask('again')))).to.include({ code: 'model_load_failed' });
  });

  it('rejects at once without touching the engine when the signal is already aborted', async () => {
    const engine = createFakeLocalEngine();
    const port = await createWebLlmInference({ size: 'nano', shaderF16: true, loader: createFakeLocalLoader({ engine }) });
    const err = await rejection(collectAnswer(port, ask('q', AbortSignal.abort(new DOMException('gone', 'AbortError')))));
    expect(err).to.have.property('message', 'gone');
    expect(engine.requests).to.have.length(0);
  });
});
