/**
 * Scratch (issue 16): generic page-self phrasings per language (written from general usage, not from any evaluation
 * question), asked of the DEVELOPMENT pages of that language: which does the gate refuse, and why.
 * `npx tsx scripts/eval/experiments/gate-self-languages.ts [--second]` — session 9's battery, or with `--second`
 * session 12's.
 */
import { checkGrounding } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { extraCases, extra2Cases, pageCases } from '../grounding-report.js';

/** Session 9: what a page is about, who wrote it, when; asked of the development half and the first extra batch. */
const FIRST: Record<string, string[]> = {
  fr: ["De quoi parle l'article ?", 'Qui a écrit cet article ?', 'Quel est le sujet ?', "C'est quoi le sujet de l'article ?", "Que dit l'auteur ?", 'Quelle est la conclusion ?', "De quoi s'agit-il ?", "Qui est l'auteur ?", 'Quel est le message principal ?', "Que raconte l'article ?", "Résume l'article", 'Quand a-t-il été publié ?'],
  es: ['¿De qué trata el artículo?', '¿Quién escribió esto?', '¿Cuál es el tema?', '¿Qué dice el autor?', '¿De qué se trata?', '¿Quién es el autor?', '¿Cuál es la idea principal?', '¿Qué cuenta la noticia?', 'Resume el artículo', '¿Cuándo se publicó?', '¿De qué habla el texto?'],
  de: ['Worum geht es im Artikel?', 'Wer hat den Artikel geschrieben?', 'Was ist das Thema?', 'Was sagt der Autor?', 'Worum geht es?', 'Wer ist der Autor?', 'Was ist die Hauptaussage?', 'Fasse den Artikel zusammen', 'Wann wurde das veröffentlicht?'],
  pt: ['Sobre o que é o artigo?', 'Quem escreveu isso?', 'Qual é o tema?', 'O que diz o autor?', 'Do que se trata?', 'Quem é o autor?', 'Qual é a ideia principal?', 'Resuma a notícia', 'Quando foi publicado?'],
  zh: ['这篇文章讲了什么？', '作者是谁？', '这篇文章的主题是什么？', '文章主要说什么？', '这是谁写的？', '这篇报道什么时候发表的？', '总结一下', '这个网页是关于什么的？', '这条新闻的重点是什么？'],
  ja: ['この記事は何について書かれていますか？', '著者は誰ですか？', 'この記事の要点は何ですか？', '誰が書きましたか？', 'この記事のテーマは何ですか？', '要約してください', 'いつ公開されましたか？'],
  en: ['What is the article about?', 'Who wrote this?', 'What is the main idea?', 'What does the author say?', 'What is the story about?', 'Summarize the article', 'When was it published?', 'What is the author trying to say?', 'What is the point of the article?', "What's the headline about?"],
};

/** Session 12: opinion, advice, who is quoted, the tone; asked of the development half and both extra batches. */
const SECOND: Record<string, string[]> = {
  fr: ["Que pense l'auteur ?", "Quel est l'avis de l'auteur ?", "Quels conseils donne l'article ?", "Qu'apprend-on dans cet article ?", 'Quel est le point de vue du journaliste ?', "Que critique l'auteur ?", 'Qui est cité ?', "Que recommande l'auteur ?", "Que propose l'article ?", "Quel est le ton de l'article ?", 'Quelles sont les principales informations ?', 'Quelle est la thèse défendue ?'],
  es: ['¿Qué opina el autor?', '¿Qué recomienda el artículo?', '¿Cuál es la opinión del periodista?', '¿A quién se cita?', '¿Qué critica el autor?', '¿Qué propone el texto?', '¿Qué se aprende del artículo?', '¿Cuál es el tono del artículo?', '¿Cuáles son los puntos clave?', '¿Qué consejos da?', '¿Cuál es la postura del autor?'],
  de: ['Was denkt der Autor?', 'Was empfiehlt der Artikel?', 'Wer wird zitiert?', 'Was kritisiert der Autor?', 'Welche Meinung vertritt der Autor?', 'Was ist das Fazit?', 'Welche Tipps gibt der Text?', 'Was erfährt man im Artikel?'],
  pt: ['O que o autor pensa?', 'O que o artigo recomenda?', 'Qual é a opinião do autor?', 'Quem é citado?', 'O que o autor critica?', 'Qual é a conclusão do texto?', 'Quais são os pontos principais?', 'Que dicas o texto dá?', 'Qual é a posição do autor?'],
  zh: ['作者的观点是什么？', '作者怎么看？', '文章的结论是什么？', '这篇新闻的要点是什么？', '文章批评了什么？', '这篇文章想表达什么？', '文章引用了谁的话？', '作者有什么建议？'],
  ja: ['筆者の意見は何ですか？', 'この記事の結論は？', 'この記事のポイントは？', '筆者は何を言いたいのですか？', 'この記事は誰が書いたのですか？', 'この記事で何がわかりますか？'],
};

async function main(): Promise<void> {
  await loadAllLanguages();
  const second = process.argv.includes('--second');
  const byLang = second ? SECOND : FIRST;
  const cases = [...await pageCases('dev'), ...await extraCases(), ...(second ? await extra2Cases() : [])];
  const corpora = [...new Set(cases.map((c) => c.corpus))];
  let refusedAll = 0, asked = 0;
  for (const [lang, qs] of Object.entries(byLang)) {
    const cs = corpora.filter((c) => c.language === lang);
    if (cs.length === 0) { console.log(`${lang}: no development page`); continue; }
    for (const q of qs) {
      const rs = cs.map((c) => checkGrounding(c, q));
      const refused = rs.filter((r) => !r.grounded);
      refusedAll += refused.length; asked += rs.length;
      if (refused.length > 0) console.log(`${lang} ${refused.length}/${cs.length} refused :: ${q} :: ${refused.map((r) => r.reason).join(',')}`);
    }
  }
  console.log(`refused ${refusedAll} of ${asked}`);
}
void main();
