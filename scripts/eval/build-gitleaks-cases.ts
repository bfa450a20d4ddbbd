/**
 * The gitleaks rule-source secret sets (issue 16 §1): runs gitleaks' own rule constructors
 * (`../shared/eval/secrets/gitleaks-rules/*.go`, gitleaks cmd/generate/config, MIT) in a small Go interpreter
 * (gitleaks-go.ts) and keeps what each rule hands to `utils.Validate(rule, tps, fps)`: its true positives (a secret
 * in context; the secret's span is where the rule's own regex — RE2 syntax, run with re2js — finds it, its first
 * non-empty capture group or `secretGroup`, above the rule's entropy, as gitleaks reports it) and its false
 * positives (text with no secret for that rule). `secrets.NewSecret(regex)` calls are expanded by a seeded port of
 * gitleaks' generator (gitleaks-regen.ts): same alphabets, same lengths.
 *
 * Development / held-out split, by unit (one literal element, one append argument or one
 * `utils.GenerateSampleSecrets(…)` call, see gitleaks-go.ts):
 *  - a unit written out literally goes to the development half when the FNV-1a hash of its text is even, else to
 *    the held-out half, so one string is never in both;
 *  - a unit with generator calls is drawn twice, with the development seed and with the held-out seed: each half
 *    gets its own draw of gitleaks' recipe (same alphabet and length, different values).
 * Cases: `{ text, spans, redact: 'secrets', rule, role: 'tp'|'fp', origin: 'literal'|'generated', claimed, … }` —
 * the redaction suite of `npm run eval` reads the extra fields (scripts/eval/redaction.ts).
 *
 * Usage: `npx tsx scripts/eval/build-gitleaks-cases.ts [rules-dir]` (default ../shared/eval/secrets/gitleaks-rules)
 * → .tmp/eval/redaction-gitleaks-{dev,heldout}.jsonl; also called by build-redaction-cases.ts.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RE2JS } from 're2js';
import { GoInterpreter, GoMap, GoSlice, GoStruct, Multi, STDLIB, parseGo, type GoFile, type Unit } from './gitleaks-go.js';
import { newSecret } from './gitleaks-regen.js';
import { rng } from './rng.js';

/** Seeds of the two draws of generated cases (fixed: the halves are the same on every machine). */
export const DEV_SEED = 16_001;
export const HELDOUT_SEED = 16_002;

/**
 * gitleaks rules whose token family one of Kit's shapes targets (core/redaction/secret-rules.ts, find-secrets.ts):
 * recall over these is "recall over the rules Kit claims". Kept here, not in the SDK bundle.
 */
export const CLAIMED_RULES: ReadonlySet<string> = new Set([
  'stripe-access-token',
  'github-pat', 'github-oauth', 'github-app-token', 'github-refresh-token', 'github-fine-grained-pat',
  'aws-access-token', 'gcp-api-key',
  'slack-bot-token', 'slack-user-token', 'slack-app-token', 'slack-config-access-token', 'slack-config-refresh-token',
  'slack-legacy-bot-token', 'slack-legacy-workspace-token', 'slack-legacy-token', 'slack-webhook-url',
  'openai-api-key', 'anthropic-api-key', 'anthropic-admin-api-key',
  'gitlab-pat', 'gitlab-pat-routable', 'gitlab-ptt', 'gitlab-deploy-token', 'gitlab-runner-authentication-token',
  'gitlab-runner-authentication-token-routable',
  'npm-access-token', 'sendgrid-api-token', 'huggingface-access-token', 'pypi-upload-token',
  'shopify-access-token', 'shopify-custom-access-token', 'shopify-private-app-access-token', 'shopify-shared-secret',
  'digitalocean-pat', 'digitalocean-access-token', 'digitalocean-refresh-token',
  'age-secret-key', 'square-access-token', 'square-secret', 'linear-api-key', 'postman-api-token', 'vault-service-token',
  'grafana-service-account-token', 'databricks-api-token', 'doppler-api-token', 'atlassian-api-token',
  'sentry-org-token', 'jwt', 'private-key',
  // Shapes added on the development half (secret-rules.ts, "Added on the development half") target these families
  // too, so they are claimed as well (session 9: they had been left out of this list).
  '1password-secret-key', '1password-service-account-token', 'adobe-client-secret', 'alibaba-access-key-id',
  'easypost-api-token', 'easypost-test-api-token', 'facebook-page-access-token', 'huggingface-organization-api-token',
  'jwt-base64', 'notion-api-token', 'openshift-user-token', 'sourcegraph-access-token', 'microsoft-teams-webhook',
  'aws-amazon-bedrock-api-key-long-lived',
  // Self-identifying vendor tokens given shapes in session 9 (secret-rules.ts), chosen by their gitleaks regex (a
  // vendor prefix of four or more characters with its separator), not by results.
  'gitlab-cicd-job-token', 'gitlab-feature-flag-client-token', 'gitlab-feed-token', 'gitlab-incoming-mail-token',
  'gitlab-kubernetes-agent-token', 'gitlab-oauth-app-secret', 'gitlab-scim-token', 'gitlab-rrt',
  'flyio-access-token', 'frameio-api-token', 'grafana-cloud-api-token', 'heroku-api-key-v2', 'infracost-api-token',
  'perplexity-api-key', 'planetscale-api-token', 'planetscale-oauth-token', 'planetscale-password', 'prefect-api-token',
  'pulumi-api-token', 'readme-api-token', 'rubygems-api-token', 'sendinblue-api-token', 'sentry-user-token',
  'settlemint-personal-access-token', 'settlemint-application-access-token', 'settlemint-service-access-token',
  'shippo-api-token', 'vault-batch-token', 'flutterwave-secret-key', 'flutterwave-encryption-key', 'scalingo-api-token',
  // Session 10: the remaining rules whose gitleaks regex is a standalone token with a literal of its own (not
  // GenerateSemiGenericRegex, which needs a key name beside a generic alphabet), given shapes in secret-rules.ts.
  'authress-service-client-access-key', 'clojars-api-token', 'duffel-api-token', 'dynatrace-api-token',
  'harness-api-key', 'octopus-deploy-api-key', 'intra42-client-secret',
]);

/** The claimed set before session 10, to report recall over it beside the current one (docs/eval.md). */
export const CLAIMED_RULES_SESSION_9: ReadonlySet<string> = new Set([...CLAIMED_RULES].slice(0, -7));

export type Half = 'dev' | 'heldout';

export interface GitleaksCase {
  text: string;
  spans: { start: number; end: number; kind: 'secret' }[];
  redact: 'secrets';
  rule: string;
  role: 'tp' | 'fp';
  origin: 'literal' | 'generated';
  claimed: boolean;
  /** gitleaks' file path for a rule that also matches on paths (ValidateWithPaths). */
  path?: string;
  /** tp whose secret the rule's regex did not locate (path-only rules): not scored. */
  unlocated?: true;
  /** fp text that is also a true positive of some rule (e.g. cloudflare's keys as each other's fps). */
  also_tp?: true;
  /** Other gitleaks rules whose regex (with entropy) finds a secret in this fp text. */
  other_rules?: string[];
}

/** A rule as its constructor built it, with its validation cases from one run. */
interface RuleRecord {
  id: string;
  regex: string | null;
  entropy: number;
  secretGroup: number;
  /** Lower-cased keywords: gitleaks runs a rule only on text containing one of them. */
  keywords: string[];
  tps: { text: string; unit: Unit | null; path?: string }[];
  fps: { text: string; unit: Unit | null; path?: string }[];
}

class GoRegexp {
  private compiled: RE2JS | null = null;
  constructor(readonly source: string) {}
  private get re(): RE2JS {
    this.compiled ??= RE2JS.compile(this.source);
    return this.compiled;
  }
  String(): string { return this.source; }
  MatchString(s: string): boolean { return this.re.matcher(s).find(); }
}

const GITLEAKS = 'github.com/zricethezav/gitleaks/v8';

function loadFiles(dir: string, names: readonly string[]): GoFile[] {
  return names.map((n) => parseGo(readFileSync(join(dir, n), 'utf8'), n));
}

/** Runs every rule constructor once with `seed`; returns each validated rule with its cases. */
export function runRules(rulesDir: string, seed: number): RuleRecord[] {
  const ruleFiles = readdirSync(rulesDir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go')).sort();
  const utilsDir = join(rulesDir, 'utils');
  let rand = rng(seed);
  let newSecretCalls = 0;
  let drawn: string[] = [];
  const records: RuleRecord[] = [];
  let current = '';

  const sliceOrMap = (v: unknown): { text: string; unit: Unit | null; path?: string }[] => {
    if (v instanceof GoSlice) return v.items.map((t, i) => ({ text: t as string, unit: v.units[i] ?? null }));
    if (v instanceof GoMap) return [...v.m.entries()].map(([k, t]) => ({ text: t as string, unit: v.units.get(k) ?? null, path: k as string }));
    return [];
  };
  const record = (r: unknown, tps: unknown, fps: unknown) => {
    if (!(r instanceof GoStruct)) throw new Error(`${current}: Validate without a rule`);
    const f = r.fields;
    records.push({
      id: f.RuleID as string,
      regex: f.Regex instanceof GoRegexp ? f.Regex.source : null,
      entropy: typeof f.Entropy === 'number' ? f.Entropy : 0,
      secretGroup: typeof f.SecretGroup === 'number' ? f.SecretGroup : 0,
      keywords: f.Keywords instanceof GoSlice ? (f.Keywords.items as string[]).map((k) => k.toLowerCase()) : [],
      tps: sliceOrMap(tps),
      fps: sliceOrMap(fps),
    });
    return r;
  };

  const allowlist = Object.assign((fields: Record<string, unknown>) => ({
    ...fields,
    ContainsStopWord(s: string): Multi {
      // gitleaks config.Allowlist.ContainsStopWord: case-insensitive substring match against the stop words.
      const lower = s.toLowerCase();
      const words = fields.StopWords instanceof GoSlice ? (fields.StopWords.items as string[]) : [];
      const hit = words.find((w) => lower.includes(w.toLowerCase()));
      return new Multi(hit === undefined ? [false, ''] : [true, hit]);
    },
  }), { isType: true });

  const regexpPkg = { files: [], natives: { MustCompile: (s: string) => new GoRegexp(s) } };
  const interp = new GoInterpreter({
    packages: {
      ...STDLIB,
      regexp: regexpPkg,
      [`${GITLEAKS}/regexp`]: regexpPkg,
      [`${GITLEAKS}/config`]: { files: [], natives: { Allowlist: allowlist, AllowlistMatchOr: 'OR', AllowlistMatchAnd: 'AND' } },
      [`${GITLEAKS}/cmd/generate/secrets`]: {
        files: [],
        natives: {
          NewSecret: (regex: string) => {
            newSecretCalls++;
            const value = newSecret(regex, rand);
            drawn.push(value);
            return value;
          },
        },
      },
      [`${GITLEAKS}/cmd/generate/config/utils`]: {
        files: loadFiles(utilsDir, ['generate.go', 'patterns.go']),
        natives: { Validate: record, ValidateWithPaths: record },
      },
      rules: { files: loadFiles(rulesDir, ruleFiles) },
    },
    newSecretCalls: () => newSecretCalls,
    // Values of six characters or more: shorter draws (one digit) occur in any text by chance.
    holdsGenerated: (s: string) => drawn.some((d) => d.length >= 6 && s.includes(d)),
    unitFunctions: new Set(['utils.GenerateSampleSecrets']),
  });
  for (const name of interp.ruleFunctions('rules')) {
    current = name;
    drawn = [];
    rand = rng(seed ^ fnv1a(name));
    interp.call('rules', name);
  }
  return records;
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** gitleaks' shannonEntropy (bits per character, over bytes of length). */
function entropy(s: string): number {
  if (s === '') return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const inv = 1 / Buffer.byteLength(s);
  let e = 0;
  for (const n of counts.values()) {
    const f = n * inv;
    e -= f * Math.log2(f);
  }
  return e;
}

const DELIMITER = /[\s'"`;,&<>(){}[\]]/;
const compiledCache = new Map<string, RE2JS | null>();
function compile(source: string): RE2JS | null {
  if (!compiledCache.has(source)) {
    let re: RE2JS | null = null;
    try { re = RE2JS.compile(source); } catch { re = null; }
    compiledCache.set(source, re);
  }
  return compiledCache.get(source)!;
}

/**
 * Secrets a rule reports in `text`, as gitleaks' detector computes them: each regex match, trimmed of newlines;
 * the secret is `secretGroup` or the first non-empty group of the regex run again on the match; kept when its
 * entropy exceeds the rule's; delimiters a pattern consumed at either end are trimmed off. As in gitleaks, a rule
 * with keywords runs only on text that contains one (lower-cased). Allowlists are not applied (a rule's own true
 * positives pass them).
 */
export function findingsOf(rule: Pick<RuleRecord, 'regex' | 'entropy' | 'secretGroup' | 'keywords'>, text: string): [number, number][] {
  if (!rule.regex) return [];
  if (rule.keywords.length > 0) {
    const lower = text.toLowerCase();
    if (!rule.keywords.some((k) => lower.includes(k))) return [];
  }
  const re = compile(rule.regex);
  if (!re) return [];
  const out: [number, number][] = [];
  const m = re.matcher(text);
  while (m.find()) {
    let start = m.start();
    let end = m.end();
    if (end === start) continue;
    while (start < end && text[start] === '\n') start++;
    while (end > start && text[end - 1] === '\n') end--;
    const match = text.slice(start, end);
    let s = start, e = end;
    const g = re.matcher(match);
    if (g.find() && g.groupCount() > 0) {
      const groups = rule.secretGroup > 0 ? [rule.secretGroup] : Array.from({ length: g.groupCount() }, (_, i) => i + 1);
      for (const k of groups) {
        const gs = g.start(k), ge = g.end(k);
        if (gs >= 0 && ge > gs) { s = start + gs; e = start + ge; break; }
      }
    }
    if (rule.entropy !== 0 && entropy(text.slice(s, e)) <= rule.entropy) continue;
    // A few patterns consume the delimiter after the secret (sentry-org-token ends in `(?:[^a-zA-Z0-9+/]|\z)`):
    // no secret starts or ends with whitespace, a quote or `;,&<>()[]{}`, so those are trimmed off the span.
    while (s < e && DELIMITER.test(text[s]!)) s++;
    while (e > s && DELIMITER.test(text[e - 1]!)) e--;
    if (e > s) out.push([s, e]);
  }
  return out;
}

/**
 * One half's cases from the rule sources: a run with that half's seed; its generated units, and the literal units
 * whose hash falls on this half (a literal unit has the same text in every run).
 */
export function gitleaksHalf(rulesDir: string, half: Half, rules = runRules(rulesDir, half === 'dev' ? DEV_SEED : HELDOUT_SEED)): GitleaksCase[] {
  const tpTexts = new Set(rules.flatMap((r) => r.tps.map((t) => t.text)));
  const out: GitleaksCase[] = [];
  for (const rule of rules) {
    for (const role of ['tp', 'fp'] as const) {
      const items = role === 'tp' ? rule.tps : rule.fps;
      // Group by unit (items without one are their own unit).
      const units = new Map<string, { unit: Unit | null; items: typeof items }>();
      items.forEach((it, i) => {
        const key = it.unit ? String(it.unit.id) : `solo${i}`;
        const u = units.get(key) ?? { unit: it.unit, items: [] };
        u.items.push(it);
        units.set(key, u);
      });
      for (const { unit, items: unitItems } of units.values()) {
        const generated = unit?.generated ?? false;
        if (!generated && (fnv1a(unitItems.map((it) => it.text).join('\u0000')) % 2 === 0 ? 'dev' : 'heldout') !== half) continue;
        for (const it of unitItems) out.push(makeCase(rule, role, generated ? 'generated' : 'literal', it, tpTexts, rules));
      }
    }
  }
  return out;
}

/** Both halves' cases from the rule sources. */
export function gitleaksRuleCases(rulesDir: string): Record<Half, GitleaksCase[]> {
  return { dev: gitleaksHalf(rulesDir, 'dev'), heldout: gitleaksHalf(rulesDir, 'heldout') };
}

function makeCase(rule: RuleRecord, role: 'tp' | 'fp', origin: 'literal' | 'generated', it: { text: string; path?: string }, tpTexts: ReadonlySet<string>, allRules: readonly RuleRecord[]): GitleaksCase {
  const c: GitleaksCase = { text: it.text, spans: [], redact: 'secrets', rule: rule.id, role, origin, claimed: CLAIMED_RULES.has(rule.id) };
  if (it.path !== undefined) c.path = it.path;
  if (role === 'tp') {
    const found = findingsOf(rule, it.text);
    if (found.length === 0) c.unlocated = true;
    c.spans = found.map(([start, end]) => ({ start, end, kind: 'secret' as const }));
  } else {
    if (tpTexts.has(it.text)) c.also_tp = true;
    const others = allRules.filter((r) => r.id !== rule.id && findingsOf(r, it.text).length > 0).map((r) => r.id);
    if (others.length > 0) c.other_rules = [...new Set(others)];
  }
  return c;
}

export function main(argv: string[]): void {
  const dir = resolve(argv[0] ?? join(process.cwd(), '..', 'shared', 'eval', 'secrets', 'gitleaks-rules'));
  const outDir = resolve('.tmp', 'eval');
  mkdirSync(outDir, { recursive: true });
  const halves = gitleaksRuleCases(dir);
  for (const half of ['dev', 'heldout'] as const) {
    const cases = halves[half];
    const file = join(outDir, `redaction-gitleaks-${half}.jsonl`);
    writeFileSync(file, cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
    const tps = cases.filter((c) => c.role === 'tp');
    const rules = new Set(tps.map((c) => c.rule));
    console.log(`${cases.length} cases (${tps.length} tps of ${rules.size} rules, ${cases.length - tps.length} fps) -> ${file}`);
  }
}

if (process.argv[1]?.endsWith('build-gitleaks-cases.ts')) main(process.argv.slice(2));
