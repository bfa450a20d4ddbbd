import { tokenize } from '../text/tokenize.js';
import { isStopword } from '../text/stopwords.js';
import { detectLanguage, type Language } from '../text/language.js';
import { resourcesFor, type LanguageResources } from '../text/resources.js';
import { lexiconOf, questionLexicon, type Lexicon } from './lexicon.js';

// English words of page questions; the other languages' come with their packs (`grounding.pageIntent`…).
// Words that ask for the page as a whole ("summarise", "tl;dr").
const INTENT = words(`summarise summarize summarising summarizing summarised summarized summary summaries sum tldr tl dr overview
  recap gist outline synopsis abstract eli5 takeaways takeaway highlights points`);
// Verbs that ask about a topic: they make a page question only together with a word pointing at the page.
const ABOUT = words(`think thinks changed show shows showed by about explain explains describe describes tell say says said cover covers discuss discusses mean means happen happens happened happening
  argue argues argued claim claims claimed suggest suggests suggested teach teaches taught`);
const DEICTIC = words('this it here page webpage article site website document doc text post content contents');
// Politeness and framing that may surround a page question without making it about something else.
const FILLER = words(`me us please pls give can could would you quick quickly brief briefly short shortly main key important
  idea ideas topic topics subject point whole all of in a an the is what whats do does go going thing things try trying overall new
  kind kinds type sort worth target get gets got`);

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean).flatMap((w) => tokenize(w)));
}

/**
 * True when the question asks about the page itself (in the page's language `lang`, or one detected from it) ("summarise this page", "what is this about?", "tl;dr",
 * "de quoi parle cette page ?"): such questions pass the gate whatever the page's vocabulary.
 */
export function isPageQuestion(question: string, lang: Language = 'en'): boolean {
  const words = tokenize(question);
  const qLang = detectLanguage(words, lang);
  return isPageQuestionWords(words, resourcesFor(lang), qLang, questionLexicon(resourcesFor(lang)));
}

/**
 * {@link isPageQuestion} over already normalised words, with the page's language resources (a corpus's own) and
 * the question's language `qLang` known.
 */
export function isPageQuestionWords(words: readonly string[], page: LanguageResources, qLang: Language, lex: Lexicon, oneWord?: (w: string) => boolean): boolean {
  // `oneWord`: a word that, alone beside a word pointing at the page, leaves the question about the page (session 9).
  let intent = false;
  let other: string | null = null;
  let about = false;
  let deictic = false;
  let topic = false; // "what is the main idea?", "quel est le thème ?": what the page argues or is about, and nothing else
  for (const w of words) {
    if (INTENT.has(w) || lex.has('pageIntent', w)) intent = true;
    else if (lex.has('selfTopics', w)) topic = true;
    else if (ABOUT.has(w) || lex.has('pageAbout', w)) about = true;
    else if (DEICTIC.has(w) || lex.has('pageDeictic', w)) deictic = true;
    else if (FILLER.has(w) || lex.has('pageFiller', w) || page.isStopword(w) || isStopword(w, qLang) || isStopword(w, 'en')) continue;
    else if (oneWord && other === null && oneWord(w)) other = w;
    else return false; // a word about something else: "summarise the refund policy" is a normal question
  }
  // With `oneWord` (a question asking for no kind of answer): that word and a word pointing at the page.
  if (other !== null) return deictic;
  // "What happened?", "what does it say?": an about-verb with nothing else asks about the page.
  return intent || topic || about;
}

// Page-self phrasings: a question about the page as a whole in a visitor's words — its author, what the article,
// story, review or post is about, what is being reviewed — without "this page". A noun naming a kind of page
// (after a determiner in languages with articles, so "how do I post a job" is no page question), or a verb asking
// who wrote or what is reviewed. The words come with each language's pack (`grounding.selfNouns`…).
const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
const NONE: ReadonlySet<string> = new Set();

/** Words written after an elided article in `question` ("l'auteur", "l’article"): French and Italian. */
export function elidedNouns(question: string): ReadonlySet<string> {
  if (!/['’]/.test(question)) return NONE;
  const out = new Set<string>();
  for (const m of question.matchAll(ELIDED)) for (const t of tokenize(m[1]!)) out.add(t);
  return out;
}
const ELIDED = /(?<![\p{L}\p{N}])[lL]['’](\p{L}+)/gu;

const determinerLexicons = new WeakMap<LanguageResources, WeakMap<LanguageResources, Lexicon>>();
/**
 * The determiners a page-self noun may follow: those of the page's language and the question's, not of every pack
 * loaded (Portuguese "a", Italian "i" are English words: "How do I post *a* job?" is no question about a post).
 */
export function determinerLexicon(page: LanguageResources, question: LanguageResources): Lexicon {
  let byQuestion = determinerLexicons.get(page);
  if (!byQuestion) determinerLexicons.set(page, byQuestion = new WeakMap());
  let lex = byQuestion.get(question);
  if (!lex) byQuestion.set(question, lex = lexiconOf([page, question]));
  return lex;
}

/**
 * True when `words` (normalised) ask about the page as a whole in a visitor's words: a page-kind noun after a
 * determiner ("what's the *story* about", "who wrote the *column*", "de quoi parle *l'article*", "这篇*报道*讲什么")
 * or a verb asking who wrote it or what it reviews ("what is being *reviewed*"). The caller still checks that the
 * question's other words belong to the page.
 */
export function hasSelfPhrasing(words: readonly string[], lex: Lexicon, elided: ReadonlySet<string> = NONE, det: Lexicon = lex): boolean {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (lex.has('selfVerbs', w)) return true;
    if (CJK.test(w)) { if (lex.within('selfNouns', w) || lex.within('selfTopics', w)) return true; continue; } // no articles; one word may hold it
    if (!lex.has('selfNouns', w) && !lex.has('selfTopics', w)) continue;
    if (elided.has(w)) return true; // "qui est l'auteur ?": the tokenizer drops the elided article
    for (let j = Math.max(0, i - 4); j < i; j++) if (det.has('determiners', words[j]!)) return true;
  }
  return false;
}

// Chinese measure words that stand between a demonstrative and a noun naming a text ("这*条*新闻", "这*篇*文章", "这
// *份*报告", "這*則*報導"): grammar, no topic (session 9).
const CLASSIFIERS = new Set(['条', '條', '篇', '则', '則', '份', '本', '部', '段', '个', '個', '项', '項']);

/** True when one of `words` points at the page ("this", "here", "article"…). */
export function hasDeictic(words: readonly string[], lex: Lexicon): boolean {
  for (const w of words) if (DEICTIC.has(w) || lex.has('pageDeictic', w)) return true;
  return false;
}

/** The page-self words of {@link hasSelfPhrasing}: they are no topic words of the question. */
export function isSelfWord(w: string, lex: Lexicon): boolean {
  return CLASSIFIERS.has(w) || INTENT.has(w) || lex.has('pageIntent', w) || DEICTIC.has(w) || lex.has('pageDeictic', w) || lex.has('selfNouns', w) || lex.has('selfTopics', w) || lex.has('selfVerbs', w) || ABOUT.has(w) || FILLER.has(w) || lex.has('pageAbout', w) ||
    lex.has('pageFiller', w) || (CJK.test(w) && (lex.within('selfNouns', w) || lex.within('selfTopics', w)));
}
