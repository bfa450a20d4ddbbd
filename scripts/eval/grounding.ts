/**
 * `npm run eval -- grounding <file.jsonl>` (CONTRACT §9): each case `{ page, question, expect: "answer"|"refuse",
 * min_matches? }` goes through the product's gate (core/grounding) against the corpus of its page.
 * Metrics: n, accuracy, balanced_accuracy, false_refusal_rate (answerable questions refused),
 * off_topic_acceptance_rate (off-topic questions let through), and `via_sources`: the same figures as the default
 * remote path decides (the SDK's selected sources — 6 passages, 12,000 characters — gated by POST /v1/chat over
 * those sources alone: scripts/eval/remote-gate.ts). A case's `min_matches` applies to the whole-page figures only
 * (the server's gate takes none).
 */
import { checkGrounding } from '../../core/grounding/index.js';
import { loadAllLanguages, prepareCorpus, type Corpus } from '../../core/text/index.js';
import { remoteGate } from './remote-gate.js';
import { CaseError, requireObject, requireString, type EvalSuite } from './suite.js';

export interface GroundingCase {
  readonly page: string;
  readonly question: string;
  readonly expect: 'answer' | 'refuse';
  readonly minMatches?: number;
  /** Kit extension: the page's title (as the SDK passes `document.title`). */
  readonly title?: string;
  /** Kit extension: the question's kind (`answerable`, `page`, `near_miss`, `far`…), for a per-kind breakdown. */
  readonly kind?: string;
}

export const groundingSuite: EvalSuite<GroundingCase> = {
  parseCase(value) {
    const o = requireObject(value);
    const page = requireString(o, 'page');
    const question = requireString(o, 'question');
    const expect = requireString(o, 'expect');
    if (expect !== 'answer' && expect !== 'refuse') throw new CaseError('"expect" must be "answer" or "refuse"');
    const mm = o['min_matches'];
    if (mm !== undefined && (typeof mm !== 'number' || !Number.isInteger(mm) || mm < 1)) throw new CaseError('"min_matches" must be a positive integer');
    const title = o['title'];
    if (title !== undefined && typeof title !== 'string') throw new CaseError('"title" must be a string');
    const kind = o['kind'];
    if (kind !== undefined && typeof kind !== 'string') throw new CaseError('"kind" must be a string');
    return {
      page, question, expect,
      ...(mm === undefined ? {} : { minMatches: mm as number }),
      ...(title === undefined ? {} : { title }),
      ...(kind === undefined ? {} : { kind }),
    };
  },

  async run(cases, { log }) {
    // As the server does at start-up: every language pack loaded, so a question is read with every language's
    // words whatever page came first (the SDK loads the page's pack, and the question's with loadLanguageOf).
    await loadAllLanguages();
    const corpora = new Map<string, Corpus>();
    const kinds = new Map<string, { n: number; passed: number }>();
    const remoteKinds = new Map<string, { n: number; passed: number }>();
    const remote = remoteGate();
    let answerN = 0, refused = 0, refuseN = 0, accepted = 0, remoteRefused = 0, remoteAccepted = 0;
    let gateMs = 0;
    for (const c of cases) {
      const key = `${c.title ?? ''}\u0000${c.page}`;
      let corpus = corpora.get(key);
      if (!corpus) {
        corpus = await prepareCorpus([{ url: 'eval:page', title: c.title ?? '', text: c.page }]); // as the SDK does
        corpora.set(key, corpus);
      }
      const t0 = process.cpuUsage();
      const r = checkGrounding(corpus, c.question, c.minMatches === undefined ? {} : { minMatches: c.minMatches });
      const d = process.cpuUsage(t0);
      gateMs += (d.user + d.system) / 1000;
      if (c.kind !== undefined) {
        const k = kinds.get(c.kind) ?? { n: 0, passed: 0 };
        k.n++; if (r.grounded) k.passed++;
        kinds.set(c.kind, k);
      }
      if (c.expect === 'answer') { answerN++; if (!r.grounded) refused++; } else { refuseN++; if (r.grounded) accepted++; }
      const s = await remote.check(corpus, c.question);
      if (c.kind !== undefined) {
        const k = remoteKinds.get(c.kind) ?? { n: 0, passed: 0 };
        k.n++; if (s.grounded) k.passed++;
        remoteKinds.set(c.kind, k);
      }
      if (c.expect === 'answer') { if (!s.grounded) remoteRefused++; } else if (s.grounded) remoteAccepted++;
    }
    log(`grounding: ${cases.length} cases, ${corpora.size} pages, ${((gateMs * 1000) / cases.length).toFixed(1)} µs CPU per decision`);
    return {
      ...figures(cases.length, answerN, refused, refuseN, accepted, kinds),
      via_sources: figures(cases.length, answerN, remoteRefused, refuseN, remoteAccepted, remoteKinds),
    };
  },
};

function figures(n: number, answerN: number, refused: number, refuseN: number, accepted: number, kinds: Map<string, { n: number; passed: number }>): Record<string, unknown> {
  const frr = answerN ? refused / answerN : null;
  const far = refuseN ? accepted / refuseN : null;
  const recalls = [frr === null ? null : 1 - frr, far === null ? null : 1 - far].filter((x): x is number => x !== null);
  return {
    n,
    accuracy: round((answerN - refused + refuseN - accepted) / n),
    balanced_accuracy: round(recalls.reduce((a, b) => a + b, 0) / recalls.length),
    false_refusal_rate: frr === null ? null : round(frr),
    off_topic_acceptance_rate: far === null ? null : round(far),
    ...(kinds.size === 0 ? {} : {
      passed_by_kind: Object.fromEntries([...kinds].sort().map(([k, v]) => [k, { n: v.n, passed: round(v.passed / v.n) }])),
    }),
  };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
