import { tokenize } from '../text/tokenize.js';
import { isStopword } from '../text/stopwords.js';
import { detectLanguage, type Language } from '../text/language.js';
import { resourcesFor, type LanguageResources } from '../text/resources.js';

// Words that ask for the page as a whole ("summarise", "tl;dr", "résume", "zusammenfassen", "resumen", "总结").
const INTENT = words(`summarise summarize summarising summarizing summarised summarized summary summaries sum tldr tl dr overview
  recap gist outline synopsis abstract eli5 takeaways takeaway highlights points
  resume resumer resumez resumes resumen resumir resuma resumo resumir synthese synthetiser sintese sintesis
  zusammenfassung zusammenfassen zusammen fasse fass uberblick worum
  总结 摘要 概括 概述 要点 要約 まとめ 概要`);
// Verbs that ask about a topic: they make a page question only together with a word pointing at the page.
const ABOUT = words(`about explain explains describe describes tell say says said cover covers discuss discusses mean means
  parle parlent parler traite explique decris dit
  geht handelt erklare beschreibe sagt
  trata explica describe dice
  fala diz
  关于 讲 说 介绍 について 説明 何`);
const DEICTIC = words(`this it here page webpage article site website document doc text post content contents
  cette ce ceci page article site texte document contenu
  diese dieser dieses seite artikel text inhalt webseite
  esta este esto pagina articulo sitio texto documento contenido
  essa esse isso artigo conteudo
  页面 本页 网页 文章 这个 这篇 ページ 記事 この`);
// Politeness and framing that may surround a page question without making it about something else.
const FILLER = words(`me us please pls give can could would you quick quickly brief briefly short shortly main key important
  idea ideas topic topics subject point whole all of in a an the is what whats do does go going thing things
  moi svp stp donne donnez peux pouvez principaux principales idees sujet
  mir bitte gib kannst konnen wichtigsten punkte thema es
  dame por favor puedes principales ideas tema
  pode podes favor principais
  请 一下 简单 的 主要 ください 簡単`);

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean).flatMap((w) => tokenize(w)));
}

/**
 * True when the question asks about the page itself (in the page's language `lang`, or one detected from it) ("summarise this page", "what is this about?", "tl;dr",
 * "de quoi parle cette page ?"): such questions pass the gate whatever the page's vocabulary.
 */
export function isPageQuestion(question: string, lang: Language = 'en'): boolean {
  const words = tokenize(question);
  return isPageQuestionWords(words, resourcesFor(lang), detectLanguage(words, lang));
}

/**
 * {@link isPageQuestion} over already normalised words, with the page's language resources (a corpus's own) and
 * the question's language `qLang` known.
 */
export function isPageQuestionWords(words: readonly string[], page: LanguageResources, qLang: Language): boolean {
  let intent = false;
  let about = false;
  let deictic = false;
  for (const w of words) {
    if (INTENT.has(w)) intent = true;
    else if (ABOUT.has(w)) about = true;
    else if (DEICTIC.has(w)) deictic = true;
    else if (FILLER.has(w) || page.isStopword(w) || isStopword(w, qLang) || isStopword(w, 'en')) continue;
    else return false; // a word about something else: "summarise the refund policy" is a normal question
  }
  return intent || (about && deictic);
}
