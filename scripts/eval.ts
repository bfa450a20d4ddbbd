/**
 * `npm run eval -- <suite> <file.jsonl>` (CONTRACT §9): reads one JSON case per line, runs the suite with the
 * product's own core code, prints progress to stderr and the metrics object as the last line of stdout.
 * Exit codes: 0 ok, 2 usage or input error (unknown suite, unreadable file, malformed line).
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { SUITES } from './eval/suites.js';

export async function main(argv: string[]): Promise<number> {
  const [suiteName, file] = argv;
  const usage = `usage: npm run eval -- <${Object.keys(SUITES).join('|')}> <file.jsonl>`;
  if (!suiteName || !file) return fatal(usage);
  const load = SUITES[suiteName];
  if (!load) return fatal(`unknown suite "${suiteName}"; ${usage}`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return fatal(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const suite = await load();
  const cases: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      return fatal(`${file}:${i + 1}: malformed JSON (${(err as Error).message})`);
    }
    try {
      cases.push(suite.parseCase(value));
    } catch (err) {
      return fatal(`${file}:${i + 1}: invalid ${suiteName} case: ${(err as Error).message}`);
    }
  }
  if (cases.length === 0) return fatal(`${file}: no cases`);
  const metrics = await suite.run(cases, { baseDir: dirname(resolve(file)), log: (l) => process.stderr.write(l + '\n') });
  process.stdout.write(JSON.stringify(metrics) + '\n');
  return 0;
}

function fatal(message: string): number {
  process.stderr.write(`eval: ${message}\n`);
  return 2;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('scripts/eval.ts')) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => { process.stderr.write(`eval: ${err?.stack ?? err}\n`); process.exitCode = 1; });
}
