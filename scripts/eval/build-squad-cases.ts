/**
 * `npx tsx scripts/eval/build-squad-cases.ts [--squad FILE] [--out DIR] [--refuse-per-question K]` writes the
 * JSONL case files of the `grounding` and `qa` suites (CONTRACT §9) from the shared SQuAD 2.0 data into
 * `.tmp/eval/` (git-ignored):
 *
 * - `squad-qa[-tune|-heldout].jsonl`: every answerable question, its whole article as the page, the gold answers.
 * - `squad-grounding[-tune|-heldout][-m2|-m3].jsonl`: each answerable question once against its own article
 *   (`expect: "answer"`) and K times (default 1) against another article, drawn with a fixed seed (`"refuse"`);
 *   `-m2`/`-m3` carry `min_matches` 2 and 3 for the curve (the default file leaves it out: the product default, 1).
 *
 * A page is the article's title as a heading line, then its paragraphs separated by blank lines — what
 * extraction produces for a Wikipedia article. `tune` holds the articles at even positions of the file and
 * `heldout` those at odd positions: thresholds are tuned on `tune` only and reported on `heldout` and on all.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from './rng.js';

interface SquadQa { question: string; answers: { text: string }[]; is_impossible?: boolean }
interface SquadArticle { title: string; paragraphs: { context: string; qas: SquadQa[] }[] }
interface Article { title: string; page: string; questions: { question: string; answers: string[] }[] }

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/** Articles of a SQuAD file as pages with their answerable questions. */
export function loadSquad(file: string): Article[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { data: SquadArticle[] };
  return data.data.map((a) => {
    const title = a.title.replace(/_/g, ' ');
    return {
      title,
      page: [title, ...a.paragraphs.map((p) => p.context.trim())].join('\n\n'),
      questions: a.paragraphs.flatMap((p) => p.qas
        .filter((q) => !q.is_impossible && q.answers.length > 0)
        .map((q) => ({ question: q.question.trim(), answers: [...new Set(q.answers.map((x) => x.text))] }))),
    };
  });
}


function qaLines(articles: readonly Article[]): string[] {
  return articles.flatMap((a) => a.questions.map((q) => JSON.stringify({ page: a.page, question: q.question, answers: q.answers })));
}

function groundingLines(articles: readonly Article[], refusePerQuestion: number, minMatches?: number): string[] {
  const rnd = rng(20240601);
  const extra = minMatches === undefined ? {} : { min_matches: minMatches };
  const out: string[] = [];
  articles.forEach((a, i) => {
    for (const q of a.questions) {
      out.push(JSON.stringify({ page: a.page, question: q.question, expect: 'answer', ...extra }));
      const others = articles.map((_, j) => j).filter((j) => j !== i);
      for (let k = 0; k < refusePerQuestion && others.length > 0; k++) {
        const j = others.splice(Math.floor(rnd() * others.length), 1)[0]!;
        out.push(JSON.stringify({ page: articles[j]!.page, question: q.question, expect: 'refuse', ...extra }));
      }
    }
  });
  return out;
}

function main(): void {
  const squad = arg('--squad', join(root, '..', 'shared', 'eval', 'squad', 'dev-v2.0.cs224n-half.json'));
  const outDir = arg('--out', join(root, '.tmp', 'eval'));
  const k = Number(arg('--refuse-per-question', '1'));
  const articles = loadSquad(squad);
  mkdirSync(outDir, { recursive: true });
  const splits: Record<string, Article[]> = {
    '': articles,
    '-tune': articles.filter((_, i) => i % 2 === 0),
    '-heldout': articles.filter((_, i) => i % 2 === 1),
  };
  const write = (name: string, lines: string[]): void => {
    writeFileSync(join(outDir, name), lines.join('\n') + '\n');
    process.stdout.write(`${join(outDir, name)}: ${lines.length} cases\n`);
  };
  for (const [suffix, arts] of Object.entries(splits)) {
    write(`squad-qa${suffix}.jsonl`, qaLines(arts));
    write(`squad-grounding${suffix}.jsonl`, groundingLines(arts, k));
    for (const m of [2, 3]) write(`squad-grounding${suffix}-m${m}.jsonl`, groundingLines(arts, k, m));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
