/**
 * Scratch (issue 16, session 9): generic page-self phrasings per language (written from general usage, not from any
 * evaluation question), asked of the DEVELOPMENT pages (real pages' development half, extra questions' pages) of that
 * language: which does the gate refuse, and why.
 */
import { checkGrounding } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageCases } from '../grounding-report.js';
import { extraCases } from '../grounding-report.js';

const BY_LANG: Record<string, string[]> = {
  fr: ["De quoi parle l'article ?", 'Qui a écrit cet article ?', 'Quel est le sujet ?', "C'est quoi le sujet de l'article ?", "Que dit l'auteur ?", 'Quelle est la conclusion ?', "De quoi s'agit-il ?", "Qui est l'auteur ?", 'Quel est le message principal ?', "Que raconte l'article ?", "Résume l'article", 'Quand a-t-il été publié ?'],
  es: ['¿De qué trata el artículo?', '¿Quién escribió esto?', '¿Cuál es el tema?', '¿Qué dice el autor?', '¿De qué se trata?', '¿Quién es el autor?', '¿Cuál es la idea principal?', '¿Qué cuenta la noticia?', 'Resume el artículo', '¿Cuándo se publicó?', '¿De qué habla el texto?'],
  de: ['Worum geht es im Artikel?', 'Wer hat den Artikel geschrieben?', 'Was ist das Thema?', 'Was sagt der Autor?', 'Worum geht es?', 'Wer ist der Autor?', 'Was ist die Hauptaussage?', 'Fasse den Artikel zusammen', 'Wann wurde das veröffentlicht?'],
  pt: ['Sobre o que é o artigo?', 'Quem escreveu isso?', 'Qual é o tema?', 'O que diz o autor?', 'Do que se trata?', 'Quem é o autor?', 'Qual é a ideia principal?', 'Resuma a notícia', 'Quando foi publicado?'],
  zh: ['这篇文章讲了什么？', '作者是谁？', '这篇文章的主题是什么？', '文章主要说什么？', '这是谁写的？', '这篇报道什么时候发表的？', '总结一下', '这个网页是关于什么的？', '这条新闻的重点是什么？'],
  ja: ['この記事は何について書かれていますか？', '著者は誰ですか？', 'この記事の要点は何ですか？', '誰が書きましたか？', 'この記事のテーマは何ですか？', '要約してください', 'いつ公開されましたか？'],
  en: ['What is the article about?', 'Who wrote this?', 'What is the main idea?', 'What does the author say?', 'What is the story about?', 'Summarize the article', 'When was it published?', 'What is the author trying to say?', 'What is the point of the article?', "What's the headline about?"],
};

async function main(): Promise<void> {
  await loadAllLanguages();
  const cases = [...await pageCases('dev'), ...await extraCases()];
  const corpora = [...new Set(cases.map((c) => c.corpus))];
  for (const [lang, qs] of Object.entries(BY_LANG)) {
    const cs = corpora.filter((c) => c.language === lang);
    if (cs.length === 0) { console.log(`${lang}: no development page`); continue; }
    for (const q of qs) {
      const rs = cs.map((c) => checkGrounding(c, q));
      const refused = rs.filter((r) => !r.grounded);
      if (refused.length > 0) console.log(`${lang} ${refused.length}/${cs.length} refused :: ${q} :: ${refused.map((r) => r.reason).join(',')}`);
    }
  }
}
void main();
