import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { checkGrounding, refusalMessage } from '../../../core/grounding/gate.js';
import { buildCorpus, type Corpus } from '../../../core/text/corpus.js';
import { loadAllLanguages } from '../../../core/text/load-language.js';
import { DEFAULT_REFUSAL_MESSAGE } from '../../../core/config/defaults.js';
import type { SourcePage } from '../../../core/sources.js';
import pages from '../../fixtures/grounding/pages.json' with { type: 'json' };
import cases from '../../fixtures/grounding/cases.json' with { type: 'json' };

type Case = { page: string; question: string; grounded: boolean; reason?: string };
const P = pages as Record<string, SourcePage>;
const corpora = new Map<string, Corpus>();
const corpusOf = (name: string): Corpus => {
  let c = corpora.get(name);
  if (!c) { c = buildCorpus([P[name]!]); corpora.set(name, c); }
  return c;
};

describe('checkGrounding', () => {
  // As prepareCorpus does for a page's language (corpora here are built lazily, after this hook).
  before(loadAllLanguages);

  for (const c of cases as Case[]) {
    it(`${c.grounded ? 'passes' : 'refuses'} "${c.question}" when the page is ${c.page}`, () => {
      const r = checkGrounding(corpusOf(c.page), c.question);
      expect(r.grounded).to.equal(c.grounded);
      if (c.reason) expect(r.reason).to.equal(c.reason);
    });
  }

  it('reports the question words it matched when it passes', () => {
    const r = checkGrounding(corpusOf('bakery'), 'How much does the Family plan cost?');
    expect(r).to.deep.include({ grounded: true, reason: 'matched' });
    expect(r.matched).to.include.members(['family', 'plan']);
  });

  it('refuses a question made only of stopwords and question words', () => {
    for (const q of ['What is it?', 'Who are they and why?', 'Qui est-ce ?', '???', '']) {
      expect(checkGrounding(corpusOf('bakery'), q), q).to.deep.include({ grounded: false, reason: 'no_content_words' });
    }
  });

  it('passes an accented French question and its unaccented spelling when the page is French', () => {
    for (const q of ['Où se trouve la basilique de Fourvière ?', 'ou se trouve la basilique de fourviere']) {
      expect(checkGrounding(corpusOf('lyon'), q).grounded, q).to.equal(true);
    }
  });

  it('respects minMatches when the question shares one content word with the page', () => {
    const corpus = corpusOf('bakery');
    expect(checkGrounding(corpus, 'Tell me about sourdough', { minMatches: 1 }).grounded).to.equal(true);
    const r = checkGrounding(corpus, 'Tell me about sourdough', { minMatches: 2 });
    expect(r).to.deep.include({ grounded: false, reason: 'too_few_matches' });
    expect(checkGrounding(corpus, 'Are sourdough loaves made with rye flour?', { minMatches: 3 }).grounded).to.equal(true);
  });

  it('refuses an off-topic question naming something the page never mentions', () => {
    // "plan" and "week" occur on the page, but the question is about a gym.
    const r = checkGrounding(corpusOf('bakery'), 'How much is the weekly plan at Planet Fitness?');
    expect(r.grounded).to.equal(false);
  });

  it('works across the pages of a multi-page corpus', () => {
    const corpus = buildCorpus([P['bakery']!, P['lyon']!]);
    expect(checkGrounding(corpus, 'How much does the Family plan cost?').grounded).to.equal(true);
  });

  it('judges each page of a large site on its own when the question is about one page', () => {
    // 40 pages of a town's site; one of them is the bakery. Common words ("plan", "cost", "week") are everywhere,
    // so only a per-page view still sees that the bakery page is about them.
    const topics = ['road works', 'library hours', 'school meals', 'recycling', 'parking permits', 'sports club', 'council tax', 'bus routes'];
    const site = Array.from({ length: 39 }, (_, i) => {
      const t = topics[i % topics.length]!;
      return { url: `https://town.example/${i}`, title: `${t} ${i}`, text: `The council plan for ${t} changes every week. The cost of ${t} is reviewed each year by the council, and residents can read the plan online. Questions about ${t} go to the town hall.` };
    });
    const corpus = buildCorpus([...site, P['bakery']!]);
    expect(checkGrounding(corpus, 'How much does the Family plan cost?').grounded).to.equal(true);
    expect(checkGrounding(corpus, 'Who reviews the cost of library hours?').grounded).to.equal(true);
    // The library's page names its hours but gives none: no passage holds a time, so the question is refused.
    expect(checkGrounding(corpus, 'When does the library open?')).to.include({ grounded: false, reason: 'not_answerable' });
    expect(checkGrounding(corpus, 'Who won the 2018 FIFA World Cup?').grounded).to.equal(false);
  });

  it('is monotone in minMatches when given any question', () => {
    const corpus = corpusOf('bakery');
    const words = ['plan', 'cost', 'loaves', 'flour', 'rye', 'delivery', 'football', 'router', 'the', 'what', 'Portland', 'Napoleon', 'cake', 'weekly'];
    fc.assert(fc.property(fc.array(fc.constantFrom(...words), { maxLength: 8 }), fc.integer({ min: 1, max: 4 }), (ws, m) => {
      const q = ws.join(' ');
      const looser = checkGrounding(corpus, q, { minMatches: m });
      const stricter = checkGrounding(corpus, q, { minMatches: m + 1 });
      if (stricter.grounded) expect(looser.grounded).to.equal(true);
    }), { numRuns: 300 });
  });

  it('never throws and returns a well-formed result when given any string', () => {
    const corpus = corpusOf('bakery');
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), (q) => {
      const r = checkGrounding(corpus, q);
      expect(r.grounded).to.be.a('boolean');
      expect(r.matched).to.be.an('array');
      expect(r.reason).to.be.a('string');
    }), { numRuns: 300 });
  });

  it('decides in well under a millisecond on a 100-page corpus', () => {
    const big = buildCorpus(Array.from({ length: 100 }, (_, i) => ({ ...P['bakery']!, url: `${P['bakery']!.url}/${i}`, text: `${P['bakery']!.text} Page ${i} mentions topic${i}.` })));
    checkGrounding(big, 'warm up the JIT and the lazy word lists');
    // CPU time, so that other processes on a busy machine do not make the test flaky; typically ~0.1 ms here.
    const t0 = process.cpuUsage();
    for (let i = 0; i < 200; i++) checkGrounding(big, 'How much does the Family plan cost per week?');
    const d = process.cpuUsage(t0);
    expect((d.user + d.system) / 1000 / 200).to.be.lessThan(1);
  });
});

describe('refusalMessage', () => {
  it('returns the default text when no refusalMessage is configured', () => {
    expect(refusalMessage()).to.equal(DEFAULT_REFUSAL_MESSAGE);
    expect(refusalMessage('  ')).to.equal('I can only answer about this page');
  });

  it('returns the configured refusalMessage when there is one', () => {
    expect(refusalMessage('Ask me about bread!')).to.equal('Ask me about bread!');
  });
});
