import { expect } from 'chai';
import { createLocalInferenceHost, createPortLocalEngine } from '../../../adapters/webext/port-local-inference.js';
import { servePortStream } from '../../../adapters/webext/port-stream.js';
import { KitError } from '../../../core/errors/index.js';
import type { InferencePort } from '../../../core/ports/inference.port.js';
import { relayLocalPort } from '../../../extension/background/local-relay.js';
import { createOffscreenHost } from '../../../extension/background/offscreen-host.js';
import { runtimePortPair, type TestPort } from '../../adapters/webext/runtime-port-pair.js';

const hostSignals: AbortSignal[] = [];
const echoEngine: InferencePort = {
  model: 'echo-1',
  async *answer(request) {
    if (request.question === 'hang') {
      hostSignals.push(request.signal!);
      await new Promise((resolve) => request.signal!.addEventListener('abort', resolve));
      return;
    }
    yield { type: 'delta', text: request.question };
    yield { type: 'done', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
  },
};

/** content ⇄ background relay ⇄ offscreen host, every leg a Port pair. */
function chain(ensureHost: () => Promise<void>) {
  const hostEnds: TestPort[] = [];
  const host = createLocalInferenceHost(async () => echoEngine);
  const connect = () => {
    const [content, background] = runtimePortPair('kit-local');
    relayLocalPort(background, {
      ensureHost,
      connectHost: () => {
        const [relayEnd, offscreenEnd] = runtimePortPair('kit-local-host');
        hostEnds.push(offscreenEnd);
        servePortStream(offscreenEnd, host);
        return relayEnd;
      },
    });
    return content;
  };
  return { localEngine: createPortLocalEngine({ connect }), hostEnds, hostSignals };
}

describe('relayLocalPort', () => {
  it('carries load and answer calls to the model host once it is up, holding what came before', async () => {
    let up!: () => void;
    const started = new Promise<void>((r) => (up = r));
    const { localEngine } = chain(() => started);
    const loading = localEngine({ size: 'nano', shaderF16: false, onProgress: () => undefined, signal: new AbortController().signal });
    setTimeout(up, 30);
    const port = await loading;
    expect(port.model).to.equal('echo-1');
    const events = [];
    for await (const e of port.answer({ question: 'hello there', history: [], sources: [] })) events.push(e);
    expect(events[0]).to.deep.equal({ type: 'delta', text: 'hello there' });
  });

  it('closes the host leg, aborting the engine, when the content script goes away mid-answer', async () => {
    const { localEngine, hostEnds, hostSignals } = chain(async () => undefined);
    const port = await localEngine({ size: 'nano', shaderF16: false, onProgress: () => undefined, signal: new AbortController().signal });
    const controller = new AbortController();
    const answering = (async () => { for await (const _ of port.answer({ question: 'hang', history: [], sources: [], signal: controller.signal })) { /* none */ } })().catch(() => undefined);
    while (hostSignals.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await answering;
    const end = Date.now() + 2_000;
    while (!hostSignals[0]!.aborted && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    expect(hostSignals[0]!.aborted).to.equal(true);
    expect(hostEnds.length).to.equal(2); // the load's leg and the answer's leg
    expect(hostEnds.every((e) => e.disconnected)).to.equal(true);
  });

  it('fails the call with the host error when the model host cannot start', async () => {
    const { localEngine } = chain(() => Promise.reject(new KitError('webgpu_unavailable', 'No offscreen documents here.')));
    const err = await localEngine({ size: 'nano', shaderF16: false, onProgress: () => undefined, signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(err).to.include({ code: 'webgpu_unavailable', message: 'No offscreen documents here.' });
  });
});

describe('createOffscreenHost', () => {
  it('creates the document once for concurrent callers and waits until it reports ready', async () => {
    let creates = 0;
    let exists = false;
    const host = createOffscreenHost({ supported: () => true, exists: async () => exists, create: async () => { creates++; exists = true; setTimeout(() => host.ready(), 20); } });
    await Promise.all([host.ensure(), host.ensure(), host.ensure()]);
    await host.ensure();
    expect(creates).to.equal(1);
  });

  it('fails with webgpu_unavailable when the browser has no offscreen documents', async () => {
    const host = createOffscreenHost({ supported: () => false, exists: async () => false, create: async () => undefined });
    expect(await host.ensure().catch((e: unknown) => e)).to.include({ code: 'webgpu_unavailable' });
  });
});
