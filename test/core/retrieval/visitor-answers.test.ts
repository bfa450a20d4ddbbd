/**
 * The default answerer as a visitor meets it (issue 16): a page extracted by Kit's own extraction, the passages the
 * SDK selects for the question, and the server's extractive engine answering over them. The failures reported on
 * a product FAQ and the demo shop, as regressions: an answer that is a heading or a question, a wrong sentence
 * stated confidently, a refusal of what the page says, a flattened table row.
 *
 * Pages: the demo site (demo/) and a small FAQ written for these tests (test/fixtures/answer/grinder-faq.html),
 * neither used to tune or measure anything.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { extractFromHtml } from '../../../adapters/browser/extract-from-html.js';
import type { InferenceEvent } from '../../../core/ports/inference.port.js';
import { answerQuestion, createExtractiveInference, createRetriever, DEFAULT_NOT_FOUND_MESSAGE, roleOf, selectSources } from '../../../core/retrieval/index.js';
import type { SourcePage } from '../../../core/sources.js';
import { isPageQuestion } from '../../../core/grounding/index.js';
import { buildCorpus } from '../../../core/text/corpus.js';
import { parseHtmlNode } from '../../../scripts/eval/extraction.js';

async function load(file: string, url: string): Promise<SourcePage> {
  const content = await extractFromHtml(readFileSync(file, 'utf8'), url, { parseHtml: parseHtmlNode });
  if (!content) throw new Error(`no text in ${file}`);
  return { url, title: content.title, text: content.text };
}

interface Reply { text: string; cited: SourcePage[] }

/** The visitor's path: the SDK's source selection over the pages, then the server's engine over those sources. */
async function ask(pages: readonly SourcePage[], question: string): Promise<Reply> {
  const sources = selectSources(createRetriever(buildCorpus(pages)), question, { maxSources: 6, maxChars: 12_000 });
  let text = '';
  const cited: SourcePage[] = [];
  // As the server builds it (server/modules/chat.module.ts): page questions answered with the page's lead.
  for await (const e of createExtractiveInference({ answer: { pageQuestion: isPageQuestion } }).answer({ question, history: [], sources }) as AsyncIterable<InferenceEvent>) {
    if (e.type === 'delta') text += e.text;
    if (e.type === 'citation') cited.push(sources[e.index - 1]!);
  }
  return { text, cited };
}

describe('the default answerer on the demo shop and a product FAQ', () => {
  let faq: SourcePage;
  let site: SourcePage[];
  before(async () => {
    faq = await load('test/fixtures/answer/grinder-faq.html', 'https://aurora.example/faq');
    site = await Promise.all(['index', 'faq', 'pricing', 'shipping', 'docs/tent-care'].map((f) => load(`demo/${f}.html`, `https://demo.example/${f}`)));
  });
  const page = (name: string): SourcePage => site.find((p) => p.url.endsWith(name))!;

  it('answers with the sentence under the FAQ question, never the FAQ question itself', async () => {
    const r = await ask([faq], 'How many grind settings does it have?');
    expect(r.text).to.match(/40 stepped grind settings/);
    expect(r.text).not.to.include('?');
  });

  it('answers "how do I clean…" with the instructions under the Cleaning heading, never the heading', async () => {
    const r = await ask([page('tent-care')], 'How do I clean my tent?');
    expect(r.text).to.match(/^Rinse the fly with lukewarm water/);
    expect(r.text).not.to.equal('Cleaning');
    const g = await ask([faq], 'How do I clean the grinder?');
    expect(g.text).to.match(/Unplug the grinder/);
    expect(g.text).to.match(/Brush both burrs/);
  });

  it("gives the tent's weight, not its interior length, when the site holds both", async () => {
    const r = await ask(site, 'How much does the Ridgeline 2 weigh?');
    expect(r.text).to.match(/890 grams/);
    expect(r.text).not.to.match(/220 centimetres/);
    expect(r.cited.map((c) => c.url)).to.deep.equal(['https://demo.example/index']);
  });

  it('answers from a page the site lists under two addresses (/ and /index.html) as from one page', async () => {
    // The crawl reads the home page twice when the sitemap names / and the visitor is on /index.html: its copy must
    // neither take a source's place nor count as a rival sentence that makes the answer look uncertain.
    const twice = [...site, { ...page('index'), url: 'https://demo.example/' }];
    const sources = selectSources(createRetriever(buildCorpus(twice)), 'How heavy is the Ridgeline 2?', { maxSources: 6, maxChars: 12_000 });
    expect(new Set(sources.map((s) => s.text)).size).to.equal(sources.length);
    expect(sources).to.have.length(6);
    const r = await ask(twice, 'How heavy is the Ridgeline 2?');
    expect(r.text).to.match(/890 grams/);
    const out = answerQuestion(createRetriever(buildCorpus(twice)), 'How heavy is the Ridgeline 2?');
    const once = answerQuestion(createRetriever(buildCorpus(site)), 'How heavy is the Ridgeline 2?');
    // The copy changes nothing but the words' passage counts: same sentences, about the same confidence as with the page
    // listed once.
    const ranked = out.ok ? out.value.sentences : out.sentences;
    expect(new Set(ranked.map((s) => s.text)).size).to.equal(ranked.length);
    expect(ranked.map((s) => s.text)).to.deep.equal((once.ok ? once.value.sentences : once.sentences).map((s) => s.text));
    expect(out.ok ? out.value.confidence : out.confidence).to.be.closeTo((once.ok ? once.value.confidence : once.confidence)!, 0.02);
  });

  it('says plainly that the page does not say, citing the closest passages, when asked what it never mentions', async () => {
    const r = await ask([faq], 'Does it come with a scale?');
    expect(r.text).to.equal(DEFAULT_NOT_FOUND_MESSAGE);
    expect(r.text).to.equal("I couldn't find that on this page.");
    expect(r.cited.length).to.be.at.least(1);
    const w = await ask([faq], 'Does the grinder come with a scale?');
    expect(w.text).not.to.match(/warranty/);
  });

  it('answers a support contact and a price in euros that the page gives', async () => {
    expect((await ask([faq], 'How can I contact support?')).text).to.match(/support@aurora-coffee\.example/);
    expect((await ask([page('shipping')], 'How do I contact you?')).text).to.match(/help@fernwood\.example/);
    const pro = (await ask([faq], 'How much does the Aurora Pro cost?')).text;
    expect(pro).to.match(/€219/);
    // The Aurora's row holds a price and "Aurora" but not "Pro": another product, not a second price of this one.
    expect(pro).not.to.match(/€149/);
    expect((await ask([faq], 'How much is delivery?')).text).to.match(/free on orders over €50/);
  });

  it('answers "what is your phone number?", "where are you located?" and "what are your opening hours?" with the sentence in that form, though it shares no word with the question (session 15)', async () => {
    const phone = await ask([page('shipping')], 'What is your phone number?');
    expect(phone.text).to.match(/\+1 828 555 0142/);
    expect(phone.text).not.to.include("couldn't");
    expect((await ask([page('shipping')], 'What is your email?')).text).to.match(/help@fernwood\.example/);
    const where = await ask(site, 'Where are you located?');
    expect(where.text).to.match(/41 Foundry Street/);
    expect(where.cited.map((c) => c.url)).to.include('https://demo.example/index');
    expect((await ask([page('index')], 'What are your opening hours?')).text).to.match(/Saturdays from 10 am to 4 pm/);
    // Opening hours over two lines are quoted together; a sentence with one clock time is no opening hours.
    const bakery: SourcePage = { url: 'https://bakery.example/', title: 'Rosemary & Rye', text: 'Visit us\n\nRosemary & Rye, 14 Canal Street, Millbrook MB4 2QT. Open Tuesday to Saturday, 7:30 am – 4 pm. Sunday 8 am – 1 pm.\n\nOrder by 6 pm the day before.' };
    expect((await ask([bakery], 'What are your opening hours?')).text).to.equal('Open Tuesday to Saturday, 7:30 am – 4 pm. Sunday 8 am – 1 pm.');
    // Asked of pages without that form, it is not found, never another sentence stated as the answer.
    expect((await ask([page('pricing')], 'What is your phone number?')).text).to.match(/^I couldn't find/);
  });

  it('answers "what is this page about?" with the page\'s lead, from the page\'s opening though a later passage says "pages" (session 15)', async () => {
    const index = 'Fernwood Trail Co. designs and sews ultralight backpacking gear in a small workshop in Asheville, North Carolina.';
    for (const q of ['What is this page about?', 'Summarize this page', 'tl;dr']) {
      const r = await ask(site, q);
      expect(r.text, q).to.match(new RegExp(`^${index.replace(/\./g, '\\.')} The company was founded in 2014`));
      expect(r.cited.map((c) => c.url), q).to.deep.equal(['https://demo.example/index']);
    }
    const pricing = await ask([page('pricing')], 'What is this page about?');
    expect(pricing.text).to.match(/^A Fernwood membership gives you discounts/);
    // Headings are no part of the lead, and it stops within LEAD_CHARS past its first sentence.
    expect(pricing.text).not.to.include('Memberships');
    expect(pricing.text.length).to.be.at.most(700);
  });

  it('sends the chosen passages in the pages\' order', () => {
    const corpus = buildCorpus(site);
    const sources = selectSources(createRetriever(corpus), 'How do I clean my tent and what does shipping cost?', { maxSources: 6, maxChars: 12_000 });
    const positions = sources.map((s) => corpus.passages.findIndex((p) => p.url === s.url && p.text === s.text));
    expect(positions.every((p) => p >= 0)).to.equal(true);
    expect(positions).to.deep.equal([...positions].sort((a, b) => a - b));
  });

  it('quotes a table row as "column: value" pairs', async () => {
    const r = await ask([page('pricing')], 'How much is the Summit membership?');
    expect(r.text).to.match(/Plan: Summit; Price: \$49 per year; Discount: 10% on all gear/);
    expect((await ask([faq], 'How heavy is the Aurora Pro?')).text).to.match(/Model: Aurora Pro; .*Weight: 2\.6 kg/);
  });

  it('states the general price and quotes the conditional one after it, when both hold the price and the key word', async () => {
    // The sources the SDK posted for the README's question on the demo's pricing page (captured from /v1/chat): the
    // Summit row and the students' price competed, and the answer was hedged as "the closest it comes".
    const captured = JSON.parse(readFileSync('test/fixtures/answer/demo-summit-sources.json', 'utf8')) as { question: string; sources: SourcePage[] };
    let text = '';
    for await (const e of createExtractiveInference().answer({ question: captured.question, history: [], sources: captured.sources }) as AsyncIterable<InferenceEvent>) {
      if (e.type === 'delta') text += e.text;
    }
    expect(text).to.match(/^Plan: Summit; Price: \$49 per year; .*per year\. Students and anyone on a thru-hike of more than 500 miles get the Summit plan for \$25 per year\.$/);
    expect(text).not.to.match(/couldn't find/);
    const whole = await ask([page('pricing')], captured.question);
    expect(whole.text).to.match(/^Plan: Summit; Price: \$49 per year/);
  });

  it('adds the sentence of context an answer leans on', async () => {
    const r = await ask([page('faq')], 'Do Ridgeline tents need trekking poles?');
    expect(r.text).to.match(/^Yes\. Ridgeline tents pitch with two trekking poles/);
  });

  it('never answers (nor offers as the closest sentence) a heading, a question or a fragment, whatever is asked', async () => {
    const questions = ['How many grind settings are there?', 'Delivery', 'Talk to us', 'What warranty do you offer?', 'models and prices',
      'Cleaning', 'Seam sealing', 'Zippers', 'Returns', 'Contact', 'Gift memberships', 'What we make', 'Visit the workshop', 'Repairs for life'];
    for (const q of questions) {
      for (const pages of [[faq], site]) {
        const out = answerQuestion(createRetriever(buildCorpus(pages)), q);
        // A stated answer, or the closest sentence offered as such: neither is ever a heading, question or fragment.
        const quoted = out.ok ? out.value.answer.text : out.nearest?.sentence.text;
        if (quoted === undefined) continue;
        const role = roleOf(quoted, quoted.split(/\s+/).length, false);
        expect(['sentence', 'row'], `${q} → ${quoted}`).to.include(role);
        expect(quoted, q).not.to.match(/\?$/);
      }
    }
  });
});
