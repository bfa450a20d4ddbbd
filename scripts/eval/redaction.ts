/**
 * `npm run eval -- redaction <file.jsonl>` (CONTRACT §9): Kit's redaction against labelled spans.
 * A case is `{ text, spans: [{ start, end, kind }], redact? }` (`redact` as the SDK option, default `true`); an
 * optional `other_spans: [{ start, end, type }]` lists labelled entities Kit does not claim to detect (names,
 * addresses, IPs in Presidio's data) — they are NOT scored, only used to say where false positives fell.
 *
 * Scoring, over masked regions (overlapping detections merged, as `redact` returns them):
 * - a gold span is found when every one of its characters is masked (by a region of any kind);
 * - a region that overlaps no gold span is a false positive — also when it covers an unscored entity
 *   (masking a street number as a phone is still a mistake); `fp_on_other_entities` counts those separately;
 * - per kind: recall over gold spans of that kind; precision over regions labelled that kind, a region counting
 *   as correct only when it overlaps a gold span of the same kind.
 * gitleaks rule cases (scripts/eval/build-gitleaks-cases.ts) also carry `rule`, `role` ('tp' | 'fp'), `origin`
 * ('literal' | 'generated') and `claimed`; for them the suite adds a `gitleaks` block: recall over every rule's
 * true-positive secrets, over the rules Kit claims and the others, by origin, per rule (macro mean), and the
 * false-positive rate over the rules' false-positive texts — a text counts once when anything in it is masked;
 * texts that are some rule's true positive (`also_tp`) are left out, and the rate without texts another gitleaks
 * rule flags (`other_rules`) is given beside it. tps whose secret the rule's regex could not locate (`unlocated`,
 * path-only rules) are counted, not scored.
 * Throughput: UTF-8 megabytes of case text per second of `redact` calls on one core (engines loaded and warmed
 * up first), over repeated passes of at least TIMED_MS. `mb_per_s` divides by the process's CPU time, which other
 * processes on a shared machine cannot inflate; `mb_per_s_wall` divides by elapsed time.
 */
import { normalizeConfig } from '../../core/config/index.js';
import type { RedactKind } from '../../core/config/types.js';
import { formatKey } from '../../core/keys/key-format.js';
import { loadRedactor, type RedactionSpan, type Redactor } from '../../core/redaction/index.js';
import { CLAIMED_RULES_SESSION_9 } from './build-gitleaks-cases.js';
import { CaseError, requireObject, requireString, type EvalSuite } from './suite.js';

const KINDS: readonly RedactKind[] = ['secret', 'email', 'phone', 'card', 'iban', 'ssn', 'custom'];
/** Minimum wall time of the throughput passes (default 1,000 ms). */
const TIMED_MS = 1_000;

export interface GoldSpan { readonly start: number; readonly end: number; readonly kind: RedactKind }
export interface OtherSpan { readonly start: number; readonly end: number; readonly type: string }

/** Where a gitleaks rule case comes from (build-gitleaks-cases.ts). */
export interface RuleCaseInfo {
  readonly rule: string;
  readonly role: 'tp' | 'fp';
  readonly origin: 'literal' | 'generated';
  readonly claimed: boolean;
  readonly unlocated: boolean;
  readonly alsoTp: boolean;
  readonly otherRules: readonly string[];
}

/** One redaction case. */
export interface RedactionCase {
  readonly text: string;
  readonly spans: readonly GoldSpan[];
  readonly redact: unknown;
  readonly otherSpans: readonly OtherSpan[];
  readonly ruleCase?: RuleCaseInfo;
}

/** Per-kind and overall counts from which the metrics are computed. */
export interface RedactionTally {
  gold: Record<string, number>;
  found: Record<string, number>;
  regions: Record<string, number>;
  correct: Record<string, number>;
  truePositives: number;
  falsePositives: number;
  fpOnOther: Record<string, number>;
}

export function emptyTally(): RedactionTally {
  return { gold: {}, found: {}, regions: {}, correct: {}, truePositives: 0, falsePositives: 0, fpOnOther: {} };
}

/** Scores one case's masked regions against its gold spans into `t`. */
export function scoreCase(c: Pick<RedactionCase, 'text' | 'spans' | 'otherSpans'>, masked: readonly RedactionSpan[], t: RedactionTally): void {
  const covered = new Uint8Array(c.text.length);
  for (const r of masked) covered.fill(1, r.start, r.end);
  for (const g of c.spans) {
    t.gold[g.kind] = (t.gold[g.kind] ?? 0) + 1;
    let all = true;
    for (let i = g.start; i < g.end; i++) if (!covered[i]) { all = false; break; }
    if (all) t.found[g.kind] = (t.found[g.kind] ?? 0) + 1;
  }
  for (const r of masked) {
    t.regions[r.kind] = (t.regions[r.kind] ?? 0) + 1;
    const overlapping = c.spans.filter((g) => g.start < r.end && r.start < g.end);
    if (overlapping.length === 0) {
      t.falsePositives++;
      const other = c.otherSpans.find((o) => o.start < r.end && r.start < o.end);
      const key = other ? other.type : 'none';
      t.fpOnOther[key] = (t.fpOnOther[key] ?? 0) + 1;
    } else {
      t.truePositives++;
      if (overlapping.some((g) => g.kind === r.kind)) t.correct[r.kind] = (t.correct[r.kind] ?? 0) + 1;
    }
  }
}

/** Metrics of CONTRACT §9 from a tally; a ratio with nothing to count is 1 (nothing missed, nothing wrong). */
export function metricsOf(t: RedactionTally): { precision: number; recall: number; per_kind: Record<string, { precision: number; recall: number; gold: number; masked: number }> } {
  const ratio = (a: number, b: number) => (b === 0 ? 1 : round(a / b));
  const per_kind: Record<string, { precision: number; recall: number; gold: number; masked: number }> = {};
  let gold = 0;
  let found = 0;
  for (const k of KINDS) {
    const g = t.gold[k] ?? 0;
    const r = t.regions[k] ?? 0;
    gold += g;
    found += t.found[k] ?? 0;
    if (g === 0 && r === 0) continue;
    per_kind[k] = { precision: ratio(t.correct[k] ?? 0, r), recall: ratio(t.found[k] ?? 0, g), gold: g, masked: r };
  }
  return { precision: ratio(t.truePositives, t.truePositives + t.falsePositives), recall: ratio(found, gold), per_kind };
}

/** Recall and false-positive rate over gitleaks rule cases (see the header). */
export class RuleTally {
  cases = 0;
  private readonly spans = new Map<string, { gold: number; found: number }>();
  private readonly perRule = new Map<string, { gold: number; found: number; fps: number; fpMasked: number; claimed: boolean }>();
  private fp = { scored: 0, masked: 0, clean: 0, cleanMasked: 0, alsoTp: 0, claimedScored: 0, claimedMasked: 0 };
  private unlocated = 0;

  add(c: RedactionCase, masked: readonly RedactionSpan[]): void {
    const info = c.ruleCase!;
    this.cases++;
    const rule = this.perRule.get(info.rule) ?? { gold: 0, found: 0, fps: 0, fpMasked: 0, claimed: info.claimed };
    this.perRule.set(info.rule, rule);
    if (info.role === 'tp') {
      if (info.unlocated) { this.unlocated++; return; }
      const covered = new Uint8Array(c.text.length);
      for (const r of masked) covered.fill(1, r.start, r.end);
      for (const g of c.spans) {
        let all = true;
        for (let i = g.start; i < g.end; i++) if (!covered[i]) { all = false; break; }
        for (const key of ['all', info.claimed ? 'claimed' : 'unclaimed', info.origin]) {
          const t = this.spans.get(key) ?? { gold: 0, found: 0 };
          t.gold++;
          if (all) t.found++;
          this.spans.set(key, t);
        }
        rule.gold++;
        if (all) rule.found++;
      }
      return;
    }
    if (info.alsoTp) { this.fp.alsoTp++; return; }
    const hit = masked.length > 0;
    this.fp.scored++;
    if (hit) this.fp.masked++;
    if (info.otherRules.length === 0) { this.fp.clean++; if (hit) this.fp.cleanMasked++; }
    if (info.claimed) { this.fp.claimedScored++; if (hit) this.fp.claimedMasked++; }
    rule.fps++;
    if (hit) rule.fpMasked++;
  }

  metrics(log: (line: string) => void): Record<string, unknown> {
    const ratio = (a: number, b: number) => (b === 0 ? null : round(a / b));
    const sp = (key: string) => this.spans.get(key) ?? { gold: 0, found: 0 };
    const withTps = [...this.perRule.entries()].filter(([, r]) => r.gold > 0);
    const before = withTps.filter(([id]) => CLAIMED_RULES_SESSION_9.has(id));
    const macro = (list: typeof withTps) => (list.length === 0 ? null : round(list.reduce((n, [, r]) => n + r.found / r.gold, 0) / list.length));
    for (const [id, r] of [...this.perRule.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      log(`  ${id}${r.claimed ? ' (claimed)' : ''}: tp ${r.found}/${r.gold}${r.fps ? `, fp masked ${r.fpMasked}/${r.fps}` : ''}`);
    }
    return {
      rules: withTps.length,
      tp_secrets: sp('all').gold,
      recall: ratio(sp('all').found, sp('all').gold),
      recall_claimed: ratio(sp('claimed').found, sp('claimed').gold),
      // over the rules claimed before session 10 added seven, so that a wider claim is not read as better finding
      recall_claimed_session9: ratio(before.reduce((n, [, r]) => n + r.found, 0), before.reduce((n, [, r]) => n + r.gold, 0)),
      rules_claimed_session9: before.length,
      recall_unclaimed: ratio(sp('unclaimed').found, sp('unclaimed').gold),
      recall_literal: ratio(sp('literal').found, sp('literal').gold),
      recall_generated: ratio(sp('generated').found, sp('generated').gold),
      rule_recall_macro: macro(withTps),
      rule_recall_macro_claimed: macro(withTps.filter(([, r]) => r.claimed)),
      rules_fully_found: withTps.filter(([, r]) => r.found === r.gold).length,
      rules_claimed: withTps.filter(([, r]) => r.claimed).length,
      rules_claimed_fully_found: withTps.filter(([, r]) => r.claimed && r.found === r.gold).length,
      fp_texts: this.fp.scored,
      fp_rate: ratio(this.fp.masked, this.fp.scored),
      fp_rate_claimed: ratio(this.fp.claimedMasked, this.fp.claimedScored),
      fp_rate_no_other_rule: ratio(this.fp.cleanMasked, this.fp.clean),
      fp_texts_no_other_rule: this.fp.clean,
      fp_texts_also_tp: this.fp.alsoTp,
      tp_unlocated: this.unlocated,
    };
  }
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** The normalised RedactConfig for a case's `redact` option, through the SDK's own normalisation. */
export function redactConfigOf(redact: unknown) {
  return normalizeConfig({ apiKey: formatKey('publishable', new Uint8Array(32)), redact }).config.redact;
}

function parseSpan(value: unknown, textLength: number, where: string): { start: number; end: number; rest: Record<string, unknown> } {
  const s = requireObject(value);
  const { start, end } = s;
  if (!Number.isInteger(start) || !Number.isInteger(end) || (start as number) < 0 || (end as number) <= (start as number) || (end as number) > textLength) {
    throw new CaseError(`${where}: start/end must be integers with 0 <= start < end <= text.length`);
  }
  return { start: start as number, end: end as number, rest: s };
}

export const redactionSuite: EvalSuite<RedactionCase> = {
  parseCase(value) {
    const c = requireObject(value);
    const text = requireString(c, 'text');
    if (!Array.isArray(c.spans)) throw new CaseError('"spans" must be an array');
    const spans = c.spans.map((v, i) => {
      const { start, end, rest } = parseSpan(v, text.length, `spans[${i}]`);
      if (!KINDS.includes(rest.kind as RedactKind)) throw new CaseError(`spans[${i}].kind must be one of ${KINDS.join(', ')}`);
      return { start, end, kind: rest.kind as RedactKind };
    });
    const others = c.other_spans === undefined ? [] : c.other_spans;
    if (!Array.isArray(others)) throw new CaseError('"other_spans" must be an array');
    const otherSpans = others.map((v, i) => {
      const { start, end, rest } = parseSpan(v, text.length, `other_spans[${i}]`);
      return { start, end, type: typeof rest.type === 'string' ? rest.type : 'other' };
    });
    const redact = c.redact === undefined ? true : c.redact;
    try {
      redactConfigOf(redact);
    } catch (err) {
      throw new CaseError(`"redact" is not a valid SDK redact option: ${(err as Error).message}`);
    }
    if (c.role === undefined) return { text, spans, redact, otherSpans };
    if (c.role !== 'tp' && c.role !== 'fp') throw new CaseError('"role" must be "tp" or "fp"');
    if (typeof c.rule !== 'string') throw new CaseError('"rule" must be a string');
    if (c.role === 'fp' && spans.length > 0) throw new CaseError('an "fp" case has no spans');
    const otherRules = Array.isArray(c.other_rules) ? c.other_rules.filter((r): r is string => typeof r === 'string') : [];
    const ruleCase: RuleCaseInfo = {
      rule: c.rule, role: c.role, origin: c.origin === 'generated' ? 'generated' : 'literal', claimed: c.claimed === true,
      unlocated: c.unlocated === true, alsoTp: c.also_tp === true, otherRules,
    };
    return { text, spans, redact, otherSpans, ruleCase };
  },

  async run(cases, { log }) {
    const redactors = new Map<string, Redactor>();
    const redactorOf = async (option: unknown) => {
      const key = JSON.stringify(option, (_k, v) => (v instanceof RegExp ? String(v) : v));
      let r = redactors.get(key);
      if (!r) {
        r = await loadRedactor(redactConfigOf(option));
        redactors.set(key, r);
      }
      return r;
    };
    const bound: Redactor[] = [];
    for (const c of cases) bound.push(await redactorOf(c.redact));

    const tally = emptyTally();
    const rules = new RuleTally();
    cases.forEach((c, i) => {
      const masked = bound[i]!.redact(c.text).spans;
      if (c.ruleCase) rules.add(c, masked);
      if (!c.ruleCase?.unlocated) scoreCase(c, masked, tally);
    });

    const encoder = new TextEncoder();
    const bytes = cases.reduce((n, c) => n + encoder.encode(c.text).length, 0);
    let elapsed = 0;
    let passes = 0;
    const cpu0 = process.cpuUsage();
    while (elapsed < TIMED_MS) {
      const t0 = performance.now();
      for (let i = 0; i < cases.length; i++) bound[i]!.redact(cases[i]!.text);
      elapsed += performance.now() - t0;
      passes++;
    }
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const mb = (bytes * passes) / 1e6;
    const m = metricsOf(tally);
    log(`redaction: ${cases.length} cases, ${(bytes / 1e6).toFixed(2)} MB, ${tally.truePositives} true / ${tally.falsePositives} false masked regions; false positives by entity under them: ${JSON.stringify(tally.fpOnOther)}`);
    return {
      n: cases.length,
      precision: m.precision,
      recall: m.recall,
      per_kind: m.per_kind,
      mb_per_s: Math.round((mb / (cpuMs / 1000)) * 10) / 10,
      mb_per_s_wall: Math.round((mb / (elapsed / 1000)) * 10) / 10,
      false_positives: tally.falsePositives,
      fp_on_other_entities: tally.fpOnOther,
      ...(rules.cases > 0 ? { gitleaks: rules.metrics(log) } : {}),
    };
  },
};
