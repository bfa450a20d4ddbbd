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

// Page-self phrasings: a question about the page as a whole in a visitor's words — its author, what the article,
// story, review or post is about, what is being reviewed — without "this page". A noun naming a kind of page
// (after a determiner in languages with articles, so "how do I post a job" is no page question), or a verb asking
// who wrote or what is reviewed. General vocabulary of kinds of web pages, per language.
const SELF_NOUN = words(`article articles story piece post blog blogpost report review essay column op-ed editorial interview
  analysis guide tutorial walkthrough list listicle newsletter page site website text document video podcast
  author writer headline notes explainer feature news coverage recap writeup
  article page texte reportage chronique tribune editorial billet entretien analyse critique dossier enquete auteur
  auteure site blog video papier recit guide tutoriel liste
  articulo pagina texto noticia nota reportaje cronica columna editorial entrevista analisis resena critica autor
  autora sitio blog video portada guia tutorial lista
  artigo pagina texto noticia materia reportagem cronica coluna editorial entrevista analise resenha critica autor
  autora site blog video guia tutorial lista
  artikel seite text meldung nachricht bericht beitrag kolumne kommentar interview analyse rezension kritik autor
  autorin blog video anleitung liste webseite
  clanek clanku stranka stranku text zprava zpravu reportaz komentar rozhovor recenze recenzi autor blog video navod
`);
// Chinese and Japanese words of a kind of page, found inside a segmented word ("这篇文章" is one word).
const CJK_SELF = `文章 本文 报道 報導 报导 新闻 新聞 游记 遊記 博客 网页 網頁 页面 頁面 作者 评论 評論 帖子 内容 內容 这篇 這篇
  記事 ページ ニュース お話 著者 筆者 ブログ レビュー`.split(/\s+/).filter(Boolean);
const isCjkSelf = (w: string): boolean => CJK.test(w) && CJK_SELF.some((s) => w.includes(s));
const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
const SELF_VERB = words(`wrote written writes author authored reviewed reviewing reviews covered covering discussed discussing
  describes described argued arguing argues recommends recommended announced announcing explains explaining teaches
  teaching ranking ranks reporting reports
  ecrit redige recommande annonce
  escribio escrito recomienda anuncia
  escreveu escrito recomenda anuncia
  geschrieben schrieb verfasst empfiehlt
  napsal napsala
  写 寫 讲 講 写的 寫的 说 說
  書い 書き`);
const DETERMINER = words(`the this that these those its his her their your
  le la les l ce cet cette ces du de son sa
  el la los las este esta ese esa del su
  o a os as este esta esse essa do da seu sua
  der die das dem den des diese dieser dieses diesem
  ten ta to tento tato toto tom te`);

/**
 * True when `words` (normalised) ask about the page as a whole in a visitor's words: a page-kind noun after a
 * determiner ("what's the *story* about", "who wrote the *column*", "de quoi parle *l'article*", "这篇*报道*讲什么")
 * or a verb asking who wrote it or what it reviews ("what is being *reviewed*"). The caller still checks that the
 * question's other words belong to the page.
 */
export function hasSelfPhrasing(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (SELF_VERB.has(w) || isCjkSelf(w)) return true; // Chinese, Japanese: no articles
    if (!SELF_NOUN.has(w)) continue;
    for (let j = Math.max(0, i - 4); j < i; j++) if (DETERMINER.has(words[j]!)) return true;
  }
  return false;
}

/** The page-self words of {@link hasSelfPhrasing}: they are no topic words of the question. */
export function isSelfWord(w: string): boolean {
  return SELF_NOUN.has(w) || SELF_VERB.has(w) || ABOUT.has(w) || FILLER.has(w) || isCjkSelf(w);
}
