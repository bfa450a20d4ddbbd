/**
 * Scratch (issue 16 §1): the DEVELOPMENT half of gitleaks' rule cases with each true positive's secret taken out of
 * its assignment context and put bare in a sentence ("The value <secret> was in the log."): which rules Kit finds
 * by the token's own shape, not by a key name beside it. Lists unclaimed rules with misses and the literal prefix
 * of their gitleaks regex, to choose high-precision prefixed shapes worth claiming.
 * `npx tsx scripts/eval/experiments/gitleaks-bare.ts`
 */
import { readFileSync } from 'node:fs';
import { loadRedactor } from '../../../core/redaction/index.js';

type C = { text: string; spans: { start: number; end: number }[]; rule: string; role: string; claimed: boolean; unlocated?: boolean };
const cases: C[] = readFileSync('.tmp/eval/redaction-gitleaks-dev.jsonl', 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const r = await loadRedactor({ secrets: true, pii: false, patterns: [], replacement: '[<KIND>]' });
const per = new Map<string, { n: number; found: number; claimed: boolean; sample: string }>();
const seen = new Set<string>();
for (const c of cases) {
  if (c.role !== 'tp' || c.unlocated) continue;
  for (const s of c.spans) {
    const secret = c.text.slice(s.start, s.end);
    if (seen.has(c.rule + '\0' + secret)) continue;
    seen.add(c.rule + '\0' + secret);
    const text = `The value ${secret} was in the log.`;
    const covered = r.redact(text).spans.some((m) => m.start <= 10 && m.end >= 10 + secret.length);
    const e = per.get(c.rule) ?? { n: 0, found: 0, claimed: c.claimed, sample: secret };
    e.n++;
    if (covered) e.found++;
    per.set(c.rule, e);
  }
}
let n = 0, found = 0;
for (const [rule, e] of [...per].sort()) {
  n += e.n; found += e.found;
  if (e.found < e.n) console.log(`${e.claimed ? 'claimed  ' : 'unclaimed'} ${rule}: bare ${e.found}/${e.n}  e.g. ${e.sample.slice(0, 60)}`);
}
console.log(`distinct secrets bare: ${found}/${n}`);

// Development text that is no eval set: the Markdown docs of the installed npm packages. Secrets masked there are
// mostly false positives (example keys) — a new shape must not add many.
const { readdirSync, statSync } = await import('node:fs');
const { join } = await import('node:path');
let docs = 0, masked = 0;
const walk = (dir: string, depth: number): void => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    let st; try { st = statSync(p); } catch { continue; }
    if (st.isDirectory()) { if (depth < 3 && name !== '.bin') walk(p, depth + 1); continue; }
    if (!/\.md$/i.test(name) || st.size > 2_000_000) continue;
    docs++;
    const text = readFileSync(p, 'utf8');
    for (const s of r.redact(text).spans) {
      masked++;
      if (process.argv.includes('--list')) console.log(`  ${p}: ${JSON.stringify(text.slice(s.start, Math.min(s.end, s.start + 60)))}`);
    }
  }
};
walk('node_modules', 0);
console.log(`npm package docs: ${docs} files, ${masked} secrets masked`);
