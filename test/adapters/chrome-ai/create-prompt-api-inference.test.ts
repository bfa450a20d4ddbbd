import { expect } from 'chai';
import { createPromptApiInference, CHROME_BUILT_IN_MODEL, findLanguageModel } from '../../../adapters/chrome-ai/create-prompt-api-inference.js';
import type { InferenceEvent } from '../../../core/ports/inference.port.js';
import { KitError } from '../../../core/errors/index.js';
import { createFakeLanguageModel } from '../../fakes/fake-language-model.js';

const SOURCES = [
  { url: 'https://shop.example/pricing', title: 'Pricing', text: 'The Summit membership costs $49 per year.' },
  { url: 'https://shop.example/repairs', title: 'Repairs', text: 'Expedition members get free repairs.' },
];

async function collect(events: AsyncIterable<InferenceEvent>): Promise<InferenceEvent[]> {
  const out: InferenceEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('createPromptApiInference', () => {
  it('answers from the grounded prompt with citations when Chrome has the model', async () => {
    const api = createFakeLanguageModel({ availability: 'available', answer: 'Summit costs $49 per year [1].' });
    const port = await createPromptApiInference({ api, allowDownload: false });
    expect(port.model).to.equal(CHROME_BUILT_IN_MODEL);
    const events = await collect(port.answer({ question: 'How much is Summit?', history: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }], sources: SOURCES }));
    const text = events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('');
    expect(text).to.equal('Summit costs $49 per year [1].');
    expect(events.filter((e) => e.type === 'citation')).to.deep.equal([{ type: 'citation', index: 1 }]);
    expect(events.at(-1)?.type).to.equal('done');
    const session = api.log.sessions.at(-1)!;
    expect(session.initialPrompts[0]!.role).to.equal('system');
    expect(session.initialPrompts[0]!.content).to.include('[1] Pricing').and.include('$49 per year');
    expect(session.initialPrompts.slice(1).map((p) => p.role)).to.deep.equal(['user', 'assistant']);
    expect(session.prompts).to.deep.equal(['How much is Summit?']);
    expect(session.destroyed).to.equal(true);
  });

  it("refuses to start a download in 'auto' (downloadable) and says why", async () => {
    const api = createFakeLanguageModel({ availability: 'downloadable' });
    const err = await createPromptApiInference({ api, allowDownload: false }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(KitError);
    expect((err as KitError).code).to.equal('model_load_failed');
    expect(api.log.sessions).to.have.length(0);
  });

  it('reports the download as progress when a download is allowed', async () => {
    const api = createFakeLanguageModel({ availability: 'downloading', downloadSteps: [0, 0.4, 1] });
    const progress: number[] = [];
    const port = await createPromptApiInference({ api, allowDownload: true, onProgress: (p) => progress.push(p.loaded / p.total) });
    expect(progress).to.deep.equal([0, 0.4, 1]);
    expect(port.model).to.equal(CHROME_BUILT_IN_MODEL);
  });

  it('fails with model_load_failed when unavailable, when create() is refused, and without the API', async () => {
    const codes = await Promise.all([
      createPromptApiInference({ api: createFakeLanguageModel({ availability: 'unavailable' }), allowDownload: true }).catch((e: KitError) => e.code),
      createPromptApiInference({ api: createFakeLanguageModel({ availability: 'downloadable', failCreate: 'NotAllowedError' }), allowDownload: true }).catch((e: KitError) => e.code),
      createPromptApiInference({ allowDownload: true }).catch((e: KitError) => e.code),
    ]);
    expect(codes).to.deep.equal(['model_load_failed', 'model_load_failed', 'model_load_failed']);
    expect(findLanguageModel()).to.equal(null);
  });

  it('stops streaming when the signal aborts', async () => {
    const api = createFakeLanguageModel({ availability: 'available', answer: 'x'.repeat(400), pieceDelayMs: 5 });
    const port = await createPromptApiInference({ api, allowDownload: false });
    const controller = new AbortController();
    const seen: InferenceEvent[] = [];
    const run = (async () => {
      for await (const e of port.answer({ question: 'q', history: [], sources: SOURCES, signal: controller.signal })) {
        seen.push(e);
        if (seen.length === 3) controller.abort(new Error('stop'));
      }
    })();
    const err = await run.then(() => null, (e: Error) => e);
    expect(err?.message).to.equal('stop');
    expect(seen.length).to.be.lessThan(10);
    expect(api.log.sessions.at(-1)!.destroyed).to.equal(true);
  });
});
