import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the suite's time goes (docs/operations.md "Test suite time"). A root hook plugin (.mocharc.json `require`):
 * with KIT_TEST_TIMES=<file> set, each test file appends one JSON line to <file> — its worker, when its hooks
 * started and ended, and its tests of a second or more — under `mocha --parallel` too (root hooks run per file
 * there). Without the variable it records nothing. Summary, slowest files first:
 *
 *   KIT_TEST_TIMES=/tmp/times.jsonl bash .ci/run     (or npm test)
 *   npx tsx test/support/test-times.ts /tmp/times.jsonl [top]
 */

const OUT = process.env.KIT_TEST_TIMES;
const root = fileURLToPath(new URL('../../', import.meta.url));

interface FileTime {
  readonly file: string;
  readonly pid: number;
  /** Milliseconds since the epoch: the file's first root before-all hook, and its last root after-all hook. */
  readonly start: number;
  readonly end: number;
  /** Its tests of 1 s or more: title and duration (ms). The rest of `end - start` is hooks and faster tests. */
  readonly slow: ReadonlyArray<readonly [string, number]>;
}

let current: { file: string; start: number; slow: Array<[string, number]> } | null = null;

export const mochaHooks = OUT
  ? {
      beforeAll(this: Mocha.Context) {
        const suite = this.test?.parent;
        const file = suite?.suites[0]?.file ?? suite?.file ?? '?';
        current = { file: relative(root, file), start: Date.now(), slow: [] };
      },
      afterEach(this: Mocha.Context) {
        const test = this.currentTest;
        if (current && test?.duration !== undefined && test.duration >= 1000) current.slow.push([test.fullTitle(), test.duration]);
      },
      afterAll() {
        if (!current) return;
        const line: FileTime = { ...current, pid: process.pid, end: Date.now() };
        appendFileSync(OUT!, `${JSON.stringify(line)}\n`);
        current = null;
      },
    }
  : {};

/** Prints the files by time (and each one's slow tests), and each worker's busy span. */
function summarize(path: string, top: number): void {
  const rows = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FileTime);
  const first = Math.min(...rows.map((r) => r.start));
  const last = Math.max(...rows.map((r) => r.end));
  const total = rows.reduce((n, r) => n + r.end - r.start, 0);
  console.log(`${rows.length} files, ${(total / 1000).toFixed(0)} s of file time over ${((last - first) / 1000).toFixed(0)} s`);
  const workers = new Map<number, number>();
  for (const r of rows) workers.set(r.pid, (workers.get(r.pid) ?? 0) + r.end - r.start);
  for (const [pid, ms] of workers) console.log(`  worker ${pid}: ${(ms / 1000).toFixed(0)} s in files`);
  for (const r of [...rows].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, top)) {
    console.log(`${((r.end - r.start) / 1000).toFixed(1).padStart(6)} s  at ${((r.start - first) / 1000).toFixed(0).padStart(4)} s  ${r.file}`);
    for (const [title, ms] of r.slow) console.log(`        ${(ms / 1000).toFixed(1).padStart(5)} s  ${title.slice(0, 140)}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) summarize(process.argv[2] ?? '/dev/stdin', Number(process.argv[3] ?? 30));
