import { expect } from 'chai';
import { createExtractiveInference, DEFAULT_NEAREST_MESSAGE, DEFAULT_NOT_FOUND_MESSAGE, EXTRACTIVE_MODEL } from '../../../core/retrieval/extractive-inference.js';
import type { InferenceEvent, InferenceRequest } from '../../../core/ports/inference.port.js';
import type { SourcePage } from '../../../core/sources.js';
import { isLanguageLoaded } from '../../../core/text/resources.js';
import pages from '../../fixtures/grounding/pages.json' with { type: 'json' };
import { onlyEnglish } from '../text/only-english.js';

const P = pages as Record<string, SourcePage>;
const request = (question: string, extra: Partial<InferenceRequest> = {}): InferenceRequest => ({
  question, history: [], sources: [P['lyon']!, P['bakery']!], ...extra,
});
async function collect(it: AsyncIterable<InferenceEvent>): Promise<InferenceEvent[]> {
  const out: InferenceEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe('createExtractiveInference', () => {
  it('streams the answer as deltas, cites the 1-based source, then ends with done and usage', async () => {
    const engine = createExtractiveInference();
    expect(engine.model).to.equal(EXTRACTIVE_MODEL);
    const events = await collect(engine.answer(request('How much does the Family plan cost?')));
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.length).to.be.greaterThan(3);
    const text = deltas.map((e) => (e as { text: string }).text).join('');
    expect(text).to.match(/Family plan costs \$29/);
    expect(events.filter((e) => e.type === 'citation')).to.deep.equal([{ type: 'citation', index: 2 }]);
    const done = events.at(-1)!;
    expect(done.type).to.equal('done');
    if (done.type !== 'done') return;
    expect(done.finishReason).to.equal('stop');
    expect(done, 'an answer is not flagged as not found').to.not.have.property('found');
    expect(done.usage.outputTokens).to.equal(Math.ceil(text.length / 4));
    expect(done.usage.inputTokens).to.be.greaterThan(200);
  });

  it('cites every source the shown text quotes: a runner-up from another source too', async () => {
    const sources: SourcePage[] = [
      { url: 'https://b.example/pricing', title: 'Pricing', text: 'Editions\n\nEdition: Brewmate Home; Price: €249; Warranty: 2 years\nEdition: Brewmate Pro; Price: €399; Warranty: 3 years' },
      { url: 'https://b.example/order', title: 'Order form', text: 'The Brewmate Pro costs €399. Orders ship within two days.' },
    ];
    const events = await collect(createExtractiveInference().answer({ question: 'How much is the Brewmate Pro?', history: [], sources }));
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).to.include('Edition: Brewmate Pro; Price: €399').and.include('The Brewmate Pro costs €399.');
    expect(events.flatMap((e) => (e.type === 'citation' ? [e.index] : []))).to.deep.equal([1, 2]);
  });

  it('says it could not find the answer, without citation, when nothing matches', async () => {
    const events = await collect(createExtractiveInference().answer(request('Who won the football match yesterday?')));
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).to.equal(DEFAULT_NOT_FOUND_MESSAGE);
    expect(events.some((e) => e.type === 'citation')).to.equal(false);
    expect(events.at(-1)).to.deep.include({ type: 'done', finishReason: 'stop', found: false });
  });

  it('quotes the closest sentence, not as an answer, when it is not sure enough to answer', async () => {
    const events = await collect(createExtractiveInference({ answer: { minConfidence: 0.99, hedgeConfidence: 0 } }).answer(request('How much does the Family plan cost?')));
    const text = events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('');
    expect(text.startsWith(`${DEFAULT_NEAREST_MESSAGE} “`)).to.equal(true);
    expect(text).to.match(/Family plan costs \$29.*”$/);
    expect(events.filter((e) => e.type === 'citation')[0]).to.deep.equal({ type: 'citation', index: 2 });
    // The closest sentence is not an answer: the owner's log counts it as not found.
    expect(events.at(-1)).to.deep.include({ type: 'done', found: false });
    const custom = await collect(createExtractiveInference({ nearestMessage: 'Not sure; the page says:', answer: { minConfidence: 0.99, hedgeConfidence: 0 } })
      .answer(request('How much does the Family plan cost?')));
    expect(custom[0]).to.deep.equal({ type: 'delta', text: 'Not ' });
  });

  it('uses a custom not-found message when given one', async () => {
    const events = await collect(createExtractiveInference({ notFoundMessage: 'Nope.' }).answer(request('football?')));
    expect(events[0]).to.deep.equal({ type: 'delta', text: 'Nope.' });
  });

  it('stops with finish_reason length when maxOutputTokens is smaller than the answer', async () => {
    const events = await collect(createExtractiveInference().answer(request('How much does the Family plan cost?', { maxOutputTokens: 3 })));
    const done = events.at(-1)!;
    expect(done).to.deep.include({ type: 'done', finishReason: 'length' });
    const text = events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('');
    expect(text.length).to.be.at.most(12);
  });

  it('throws the abort reason when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    let caught: unknown;
    try { await collect(createExtractiveInference().answer(request('How much?', { signal: ac.signal }))); } catch (e) { caught = e; }
    expect((caught as Error).message).to.equal('stop');
  });

  it('answers follow-up questions about the same sources from one index', async () => {
    const engine = createExtractiveInference();
    const a = await collect(engine.answer(request('When are refunds issued?')));
    const b = await collect(engine.answer(request('Où se trouve le Vieux Lyon ?')));
    expect(a.find((e) => e.type === 'citation')).to.deep.equal({ type: 'citation', index: 2 });
    expect(b.find((e) => e.type === 'citation')).to.deep.equal({ type: 'citation', index: 1 });
  });

  describe('with only English loaded', () => {
    onlyEnglish();

    it('loads the French pack before indexing when the sources are French', async () => {
      // Only the stemmer relates "traboule" to the page's "traboules", and only French stopwords drop "une".
      const events = await collect(createExtractiveInference().answer(request("Qu'est-ce qu'une traboule ?", { sources: [P['lyon']!] })));
      const text = events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('');
      expect(text).to.match(/^Les traboules/);
      expect(isLanguageLoaded('fr')).to.equal(true);
    });
  });
});
