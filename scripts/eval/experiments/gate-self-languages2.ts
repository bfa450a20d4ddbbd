/**
 * Scratch (issue 16, session 12): a second set of generic page-self phrasings per language — opinion, advice, who is
 * quoted, the tone, what one learns — written from general usage (not from any evaluation question), asked of the
 * DEVELOPMENT pages of that language (real pages' development half, both extra batches): which does the gate refuse?
 * `npx tsx scripts/eval/experiments/gate-self-languages2.ts`
 */
import { checkGrounding } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { extraCases, extra2Cases, pageCases } from '../grounding-report.js';

const BY_LANG: Record<string, string[]> = {
  fr: ["Que pense l'auteur ?", "Quel est l'avis de l'auteur ?", "Quels conseils donne l'article ?", "Qu'apprend-on dans cet article ?", 'Quel est le point de vue du journaliste ?', "Que critique l'auteur ?", 'Qui est cité ?', "Que recommande l'auteur ?", "Que propose l'article ?", "Quel est le ton de l'article ?", 'Quelles sont les principales informations ?', 'Quelle est la thèse défendue ?'],
  es: ['¿Qué opina el autor?', '¿Qué recomienda el artículo?', '¿Cuál es la opinión del periodista?', '¿A quién se cita?', '¿Qué critica el autor?', '¿Qué propone el texto?', '¿Qué se aprende del artículo?', '¿Cuál es el tono del artículo?', '¿Cuáles son los puntos clave?', '¿Qué consejos da?', '¿Cuál es la postura del autor?'],
  de: ['Was denkt der Autor?', 'Was empfiehlt der Artikel?', 'Wer wird zitiert?', 'Was kritisiert der Autor?', 'Welche Meinung vertritt der Autor?', 'Was ist das Fazit?', 'Welche Tipps gibt der Text?', 'Was erfährt man im Artikel?'],
  pt: ['O que o autor pensa?', 'O que o artigo recomenda?', 'Qual é a opinião do autor?', 'Quem é citado?', 'O que o autor critica?', 'Qual é a conclusão do texto?', 'Quais são os pontos principais?', 'Que dicas o texto dá?', 'Qual é a posição do autor?'],
  zh: ['作者的观点是什么？', '作者怎么看？', '文章的结论是什么？', '这篇新闻的要点是什么？', '文章批评了什么？', '这篇文章想表达什么？', '文章引用了谁的话？', '作者有什么建议？'],
  ja: ['筆者の意見は何ですか？', 'この記事の結論は？', 'この記事のポイントは？', '筆者は何を言いたいのですか？', 'この記事は誰が書いたのですか？', 'この記事で何がわかりますか？'],
};

async function main(): Promise<void> {
  await loadAllLanguages();
  const cases = [...await pageCases('dev'), ...await extraCases(), ...await extra2Cases()];
  const corpora = [...new Set(cases.map((c) => c.corpus))];
  let refusedAll = 0, asked = 0;
  for (const [lang, qs] of Object.entries(BY_LANG)) {
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
