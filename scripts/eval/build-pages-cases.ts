/**
 * `npx tsx scripts/eval/build-pages-cases.ts [--pages DIR] [--questions FILE] [--out DIR]` writes the real-page
 * development set's case files (CONTRACT §9) from the hand-written visitors' questions in
 * `eval/pages/questions.txt` and the shared Readability test pages (`../shared/eval/pages/<case>/expected.html`,
 * turned into text by Kit's own DOM-to-text walk, as the extraction eval does):
 *
 * - `pages-grounding[-dev|-heldout].jsonl`: every question; `expect: "answer"` for answerable questions and
 *   questions about the page itself, `"refuse"` for near-miss and far off-topic ones.
 * - `pages-qa[-dev|-heldout].jsonl`: every question with gold answers.
 *
 * Each line also carries Kit's extension fields: `title` (the original page's `document.title`, as the SDK passes it),
 * `case` (the page's folder), `kind` (`answerable` | `page` | `near_miss` | `far`), `split` (`dev` | `heldout`),
 * `lang` (the question's language). The split is by page and fixed: see `pageSplit` and eval/pages/README.md.
 *
 * It fails (exit 1) when a gold answer is not found, word for word, in its page's text after SQuAD's
 * normalisation (so every gold answer is checkable by token containment), or a case folder is missing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { htmlToText, parseHtmlNode } from './extraction.js';
import { normalizeAnswer } from './qa.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type QuestionKind = 'answerable' | 'page' | 'near_miss' | 'far';
const KINDS: Record<string, QuestionKind> = { a: 'answerable', s: 'page', n: 'near_miss', f: 'far' };

export interface PageQuestion { readonly kind: QuestionKind; readonly question: string; readonly answers: readonly string[]; readonly line: number }
export interface QuestionPage { readonly name: string; readonly questions: readonly PageQuestion[] }

/** Parses the question file: `@ <case>` starts a page, `<a|s|n|f>: question [=> gold || gold]` adds a question. */
export function parseQuestions(text: string): QuestionPage[] {
  const pages: { name: string; questions: PageQuestion[] }[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('@')) { pages.push({ name: line.slice(1).trim(), questions: [] }); return; }
    const m = /^([asnf]):\s*(.+)$/.exec(line);
    if (!m || pages.length === 0) throw new Error(`questions line ${i + 1}: cannot parse "${line}"`);
    const [q, gold] = m[2]!.split(/\s=>\s/, 2) as [string, string | undefined];
    const answers = gold === undefined ? [] : gold.split('||').map((g) => g.trim()).filter((g) => g !== '');
    if (m[1] === 'a' && answers.length === 0) throw new Error(`questions line ${i + 1}: an answerable question needs a gold answer`);
    if ((m[1] === 'n' || m[1] === 'f') && answers.length > 0) throw new Error(`questions line ${i + 1}: an off-topic question has no gold answer`);
    pages.at(-1)!.questions.push({ kind: KINDS[m[1]!]!, question: q.trim(), answers, line: i + 1 });
  });
  return pages;
}

/**
 * The fixed split by page: the pages in the question file's order (alphabetical within English, then the other
 * languages), alternately development (even positions) and held-out (odd positions). Decided before any
 * measurement; never changed after.
 */
export function pageSplit(index: number): 'dev' | 'heldout' {
  return index % 2 === 0 ? 'dev' : 'heldout';
}

/** The question's language, by script and a few function words (for reporting only). */
export function questionLanguage(pageLang: string): string {
  return pageLang.toLowerCase().split('-')[0]!;
}

export interface PageCase {
  readonly case: string;
  readonly split: 'dev' | 'heldout';
  readonly lang: string;
  readonly title: string;
  readonly page: string;
  readonly kind: QuestionKind;
  readonly question: string;
  readonly answers: readonly string[];
}

/** Loads the question file and the pages; throws listing every gold answer that its page does not contain. */
export function loadPageCases(pagesDir: string, questionsFile: string): PageCase[] {
  const pages = parseQuestions(readFileSync(questionsFile, 'utf8'));
  const problems: string[] = [];
  const out: PageCase[] = [];
  const seen = new Set<string>();
  pages.forEach((p, index) => {
    if (seen.has(p.name)) problems.push(`page ${p.name} listed twice`);
    seen.add(p.name);
    const dir = join(pagesDir, p.name);
    if (!existsSync(join(dir, 'expected.html'))) { problems.push(`page ${p.name}: no expected.html in ${dir}`); return; }
    const text = htmlToText(readFileSync(join(dir, 'expected.html'), 'utf8'));
    const meta = JSON.parse(readFileSync(join(dir, 'expected-metadata.json'), 'utf8')) as { title?: string | null; lang?: string | null };
    // The page's document.title (what the SDK passes), from the original page; Readability's title if it has none.
    const source = join(dir, 'source.html');
    const docTitle = existsSync(source) ? parseHtmlNode(readFileSync(source, 'utf8')).title.replace(/\s+/g, ' ').trim() : '';
    const title = docTitle || (meta.title ?? '').trim();
    const lang = LANG_OVERRIDE[p.name] ?? questionLanguage(meta.lang ?? 'en');
    const asciiPage = normalizeAnswer(text);
    const tokenPage = ` ${normalizeTokens(text)} `;
    const unsegmented = lang === 'zh' || lang === 'ja';
    for (const q of p.questions) {
      for (const g of q.answers) {
        // Found both as a substring after SQuAD's normalisation and, for space-separated scripts, as a whole-token
        // run once all Unicode punctuation is gone too (curly quotes and apostrophes, full-width brackets).
        const a = normalizeAnswer(g);
        const t = normalizeTokens(g);
        const found = a !== '' && asciiPage.includes(a) && (unsegmented ? tokenPage.includes(t) : tokenPage.includes(` ${t} `));
        if (!found) problems.push(`line ${q.line} (${p.name}): gold "${g}" is not in the page text`);
      }
      out.push({ case: p.name, split: pageSplit(index), lang, title, page: text, kind: q.kind, question: q.question, answers: q.answers });
    }
  });
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return out;
}

/** SQuAD's normalisation with every Unicode punctuation mark removed (for token containment). */
export function normalizeTokens(s: string): string {
  return normalizeAnswer(s.replace(/[\p{P}\p{S}]/gu, (ch) => (/[$%&+<=>^`|~#@*]/.test(ch) ? ch : ' ')));
}

// Pages whose metadata has no language (the page is still in that language).
const LANG_OVERRIDE: Record<string, string> = { gmw: 'zh', youth: 'zh', hukumusume: 'ja', 'la-nacion': 'es', 'bug-1255978': 'en' };

export function groundingLine(c: PageCase): string {
  const expect = c.kind === 'answerable' || c.kind === 'page' ? 'answer' : 'refuse';
  return JSON.stringify({ page: c.page, title: c.title, question: c.question, expect, case: c.case, kind: c.kind, split: c.split, lang: c.lang });
}

export function qaLine(c: PageCase): string {
  return JSON.stringify({ page: c.page, title: c.title, question: c.question, answers: c.answers, case: c.case, kind: c.kind, split: c.split, lang: c.lang });
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function main(): void {
  const pagesDir = resolve(arg('--pages', join(root, '..', 'shared', 'eval', 'pages')));
  const questions = resolve(arg('--questions', join(root, 'eval', 'pages', 'questions.txt')));
  const outDir = resolve(arg('--out', join(root, '.tmp', 'eval')));
  let cases: PageCase[];
  try {
    cases = loadPageCases(pagesDir, questions);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
  mkdirSync(outDir, { recursive: true });
  const splits: Record<string, PageCase[]> = {
    '': cases,
    '-dev': cases.filter((c) => c.split === 'dev'),
    '-heldout': cases.filter((c) => c.split === 'heldout'),
  };
  for (const [suffix, cs] of Object.entries(splits)) {
    const g = cs.map(groundingLine);
    const q = cs.filter((c) => c.answers.length > 0).map(qaLine);
    writeFileSync(join(outDir, `pages-grounding${suffix}.jsonl`), g.join('\n') + '\n');
    writeFileSync(join(outDir, `pages-qa${suffix}.jsonl`), q.join('\n') + '\n');
    const pagesN = new Set(cs.map((c) => c.case)).size;
    process.stdout.write(`pages-grounding${suffix}.jsonl: ${g.length} cases over ${pagesN} pages; pages-qa${suffix}.jsonl: ${q.length}\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
