/**
 * Builds the redaction eval sets (CONTRACT §9) into .tmp/eval/ (git-ignored):
 *  - redaction-presidio{,-dev,-heldout}.jsonl: Presidio's synth_dataset_v2 (1,500 records), all of it and split by
 *    template (presidioSplit: each record carries the template it was generated from; a fixed half of the templates
 *    is for development, the other half held out). CREDIT_CARD→card, PHONE_NUMBER→phone, EMAIL_ADDRESS→email,
 *    IBAN_CODE→iban, US_SSN→ssn are scored; every other entity (names, addresses, dates, IPs, zip codes, driver
 *    licences…) goes to `other_spans`, which the suite does not score but uses to say where false positives fell.
 *    Masking one of them still counts as a false positive.
 *  - redaction-gitleaks-{dev,heldout}.jsonl: gitleaks' rule sources, their own true and false positives
 *    (build-gitleaks-cases.ts).
 *  - redaction-secrets.jsonl: generated beside the detector, seeded: random values of every secret shape Kit claims,
 *    inside page-like templates, plus near-miss negatives. A regression test of the claims, not a quality figure.
 *  - redaction-squad.jsonl: every SQuAD context with no spans: any masking is a false positive.
 *  - redaction-pages.jsonl: the main text of the 130 Readability test pages (expected.html through the product's
 *    DOM-to-text walk), no spans: any secret masked is a false positive; PII masked there is counted, not labelled.
 * Usage: `npx tsx scripts/eval/build-redaction-cases.ts [shared-eval-dir]` (default ../shared/eval).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import { formatKey } from '../../core/keys/key-format.js';
import { gitleaksRuleCases } from './build-gitleaks-cases.js';
import { htmlToText } from './extraction.js';
import { rng } from './rng.js';

type Kind = 'secret' | 'email' | 'phone' | 'card' | 'iban' | 'ssn' | 'custom';
interface Span { start: number; end: number; kind: Kind }
interface Case { text: string; spans: Span[]; other_spans?: { start: number; end: number; type: string }[]; tag?: string; template?: number }
type PresidioRecord = { full_text: string; template_id: number; spans: { entity_type: string; start_position: number; end_position: number }[] };

const PRESIDIO_KINDS: Readonly<Record<string, Kind>> = {
  CREDIT_CARD: 'card', PHONE_NUMBER: 'phone', EMAIL_ADDRESS: 'email', IBAN_CODE: 'iban', US_SSN: 'ssn',
};

export function presidioCases(records: readonly PresidioRecord[]): Case[] {
  return records.map((r) => {
    const spans: Span[] = [];
    const other: { start: number; end: number; type: string }[] = [];
    for (const s of r.spans) {
      const kind = PRESIDIO_KINDS[s.entity_type];
      if (kind) spans.push({ start: s.start_position, end: s.end_position, kind });
      else other.push({ start: s.start_position, end: s.end_position, type: s.entity_type });
    }
    return { text: r.full_text, spans, other_spans: other, template: r.template_id };
  });
}

/** Order in which a template's scored kinds decide its stratum: the rarest kind first. */
const STRATUM_ORDER: readonly Kind[] = ['phone', 'iban', 'ssn', 'email', 'card'];

/**
 * Presidio's records by template, half for development and half held out (issue 16 §2). Fixed rule, chosen before
 * any result: a template's stratum is the rarest scored kind among its spans (phone, IBAN, SSN, email, card; none
 * for templates without one); within each stratum, templates in ascending id alternate development, held-out,
 * development, … So each kind's templates are split evenly and no template is on both sides.
 */
export function presidioSplit(cases: readonly Case[]): { dev: Case[]; heldout: Case[]; devTemplates: number[] } {
  const kindsOf = new Map<number, Set<Kind>>();
  for (const c of cases) {
    const set = kindsOf.get(c.template!) ?? new Set<Kind>();
    for (const s of c.spans) set.add(s.kind);
    kindsOf.set(c.template!, set);
  }
  const dev = new Set<number>();
  const seen = new Map<string, number>();
  for (const t of [...kindsOf.keys()].sort((a, b) => a - b)) {
    const stratum = STRATUM_ORDER.find((k) => kindsOf.get(t)!.has(k)) ?? 'none';
    const i = seen.get(stratum) ?? 0;
    seen.set(stratum, i + 1);
    if (i % 2 === 0) dev.add(t);
  }
  return { dev: cases.filter((c) => dev.has(c.template!)), heldout: cases.filter((c) => !dev.has(c.template!)), devTemplates: [...dev].sort((a, b) => a - b) };
}

/** The main text of each Readability test page (`<case>/expected.html`), as the SDK would hand it to redaction. */
export function pageCases(pagesDir: string): Case[] {
  return readdirSync(pagesDir).filter((d) => existsSync(join(pagesDir, d, 'expected.html'))).sort()
    .map((d) => ({ text: htmlToText(readFileSync(join(pagesDir, d, 'expected.html'), 'utf8')), spans: [], tag: d }));
}

export function squadCases(squad: { data: { paragraphs: { context: string }[] }[] }): Case[] {
  return squad.data.flatMap((a) => a.paragraphs.map((p) => ({ text: p.context, spans: [] })));
}

// ---------- generated secrets ----------


const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const B64URL = ALNUM + '-_';
const B64 = ALNUM + '+/';
const HEX = '0123456789abcdef';
const UPPER_B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function pick(r: () => number, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)];
  return s;
}

/** A random string guaranteed to mix lower, upper and digits (as real generated keys do at these lengths). */
function mixed(r: () => number, alphabet: string, n: number): string {
  for (;;) {
    const s = pick(r, alphabet, n);
    if (/[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s)) return s;
  }
}

function b64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

/** Generators of one secret value each; `assignment` ones are values that only a key name makes secret. */
export const SECRET_SHAPES: Readonly<Record<string, (r: () => number) => string>> = {
  kit_secret_key: (r) => formatKey('secret', Uint8Array.from({ length: 32 }, () => Math.floor(r() * 256))),
  stripe_sk_live: (r) => 'sk_live_' + mixed(r, ALNUM, 24 + Math.floor(r() * 75)),
  stripe_sk_test: (r) => 'sk_test_' + mixed(r, ALNUM, 24 + Math.floor(r() * 75)),
  stripe_rk_live: (r) => 'rk_live_' + mixed(r, ALNUM, 24 + Math.floor(r() * 75)),
  stripe_rk_test: (r) => 'rk_test_' + mixed(r, ALNUM, 24 + Math.floor(r() * 75)),
  github_ghp: (r) => 'ghp_' + pick(r, ALNUM, 36),
  github_gho: (r) => 'gho_' + pick(r, ALNUM, 36),
  github_ghu: (r) => 'ghu_' + pick(r, ALNUM, 36),
  github_ghs: (r) => 'ghs_' + pick(r, ALNUM, 36),
  github_pat: (r) => 'github_pat_' + pick(r, ALNUM, 22) + '_' + pick(r, ALNUM, 59),
  aws_access_key_id: (r) => ['AKIA', 'ASIA'][Math.floor(r() * 2)] + pick(r, UPPER_B32, 16),
  google_api_key: (r) => 'AIza' + pick(r, B64URL, 35),
  slack_bot: (r) => `xoxb-${pick(r, '0123456789', 12)}-${pick(r, '0123456789', 13)}-${pick(r, ALNUM, 24)}`,
  slack_user: (r) => `xoxp-${pick(r, '0123456789', 12)}-${pick(r, '0123456789', 12)}-${pick(r, '0123456789', 13)}-${pick(r, HEX, 32)}`,
  openai_legacy: (r) => `sk-${mixed(r, ALNUM, 20)}T3BlbkFJ${mixed(r, ALNUM, 20)}`,
  openai_project: (r) => `sk-proj-${mixed(r, B64URL, 74)}T3BlbkFJ${mixed(r, B64URL, 74)}`,
  openai_plain: (r) => `sk-${mixed(r, ALNUM, 48)}`,
  anthropic: (r) => `sk-ant-api03-${mixed(r, B64URL, 93)}AA`,
  anthropic_admin: (r) => `sk-ant-admin01-${mixed(r, B64URL, 93)}AA`,
  jwt: (r) => {
    const header = b64url(JSON.stringify({ alg: ['HS256', 'RS256', 'ES256'][Math.floor(r() * 3)], typ: 'JWT' }));
    const payload = b64url(JSON.stringify({ sub: pick(r, '0123456789', 10), name: pick(r, ALNUM, 8), iat: 1_700_000_000 + Math.floor(r() * 1e7) }));
    return `${header}.${payload}.${pick(r, B64URL, 43)}`;
  },
  pem_private_key: (r) => {
    const kind = ['RSA ', 'EC ', 'OPENSSH ', '', 'ENCRYPTED '][Math.floor(r() * 5)];
    const lines = Array.from({ length: 4 + Math.floor(r() * 20) }, () => pick(r, B64, 64));
    return `-----BEGIN ${kind}PRIVATE KEY-----\n${lines.join('\n')}\n${pick(r, B64, 20)}==\n-----END ${kind}PRIVATE KEY-----`;
  },
  gitlab_pat: (r) => 'glpat-' + pick(r, B64URL, 20),
  npm_token: (r) => 'npm_' + pick(r, ALNUM, 36),
  sendgrid: (r) => `SG.${pick(r, B64URL, 22)}.${pick(r, B64URL, 43)}`,
  huggingface: (r) => 'hf_' + pick(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 34),
  shopify: (r) => 'shpat_' + pick(r, HEX, 32),
  digitalocean: (r) => 'dop_v1_' + pick(r, HEX, 64),
};

/** Values that are secret only because of the key they are assigned to (password=, secret=, token=, …). */
const ASSIGNED_SHAPES: Readonly<Record<string, (r: () => number) => string>> = {
  password: (r) => mixed(r, ALNUM + '!@#%^*_-', 10 + Math.floor(r() * 14)),
  aws_secret_access_key: (r) => mixed(r, B64, 40),
  opaque_token: (r) => mixed(r, B64URL, 32 + Math.floor(r() * 20)),
};

/** Page-like contexts; `{v}` is the value. The span is exactly the value. */
const TOKEN_TEMPLATES: readonly string[] = [
  "const client = new Client({ apiKey: '{v}' });",
  'export API_KEY={v}',
  'curl https://api.example.com/v1/items -H "X-Api-Key: {v}"',
  'Your new key is {v}. Store it somewhere safe; it will not be shown again.',
  '{"id": 42, "name": "deploy", "key": "{v}", "active": true}',
  '| production | {v} | created 3 days ago |',
  'Step 3: paste {v} into the settings page, then press Save.',
  'We rotated the leaked credential ({v}) on Monday.',
  'config:\n  provider: upstream\n  key: {v}\n  retries: 3',
  '<code>{v}</code> is the key for the sandbox account.',
];

const ASSIGNMENT_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  password: [
    'DB_PASSWORD={v}', 'password = "{v}"', '"password": "{v}"', '  password: {v}', "login('admin', password='{v}')",
    'mysql -u root --password={v} app', 'spring.datasource.password={v}', 'SMTP_PASS={v}\nSMTP_PASSWORD={v}',
  ],
  aws_secret_access_key: ['aws_secret_access_key = {v}', 'AWS_SECRET_ACCESS_KEY="{v}"', '"secretAccessKey": "{v}"', 'export AWS_SECRET_ACCESS_KEY={v}'],
  opaque_token: [
    'Authorization: Bearer {v}', 'curl -H "Authorization: Bearer {v}" https://api.example.com/me', 'GITHUB_TOKEN={v}',
    'access_token={v}&expires_in=3600', '"client_secret": "{v}"', 'secret: {v}', 'api_key = "{v}"', 'https://example.com/reset?token={v}',
  ],
};

/** Near misses: publishable keys, numbers and ids that look like secrets or PII but are neither. */
function negatives(r: () => number): string[] {
  const pub = () => formatKey('publishable', Uint8Array.from({ length: 32 }, () => Math.floor(r() * 256)));
  const luhnInvalid = () => {
    for (;;) {
      const d = '4' + pick(r, '0123456789', 15);
      if (!luhn(d)) return d;
    }
  };
  const isbn13 = () => {
    const body = '978' + pick(r, '0123456789', 9);
    let sum = 0;
    for (let i = 0; i < 12; i++) sum += (i % 2 ? 3 : 1) * +body[i]!;
    const d = body + ((10 - (sum % 10)) % 10);
    return `${d.slice(0, 3)}-${d.slice(3, 4)}-${d.slice(4, 8)}-${d.slice(8, 12)}-${d.slice(12)}`;
  };
  const isbn10 = () => {
    const body = pick(r, '0123456789', 9);
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (10 - i) * +body[i]!;
    const c = (11 - (sum % 11)) % 11;
    const d = body + (c === 10 ? 'X' : String(c));
    return `${d.slice(0, 1)}-${d.slice(1, 4)}-${d.slice(4, 9)}-${d.slice(9)}`;
  };
  const uuid = () => `${pick(r, HEX, 8)}-${pick(r, HEX, 4)}-4${pick(r, HEX, 3)}-${'89ab'[Math.floor(r() * 4)]}${pick(r, HEX, 3)}-${pick(r, HEX, 12)}`;
  const sha = () => pick(r, HEX, 40);
  const g = (n: number) => pick(r, '0123456789', n);
  const price = () => [`$${g(1)},${g(3)}.${g(2)}`, `€ ${g(1)}.${g(3)},${g(2)}`, `USD ${g(2)},${g(3)},${g(3)}`, `£${g(3)}.${g(2)}`, `¥${g(2)},${g(3)}`][Math.floor(r() * 5)]!;
  const year = () => 1950 + Math.floor(r() * 75);
  const date = () => {
    const y = year();
    const m = String(1 + Math.floor(r() * 12)).padStart(2, '0');
    const d = String(1 + Math.floor(r() * 28)).padStart(2, '0');
    return [`${y}-${m}-${d}`, `${d}/${m}/${y}`, `${m}-${d}-${y}`, `${y}-${m}-${d}T${g(1)}${g(1)}:${g(2).replace(/^[6-9]/, '1')}:00Z`, `${d}.${m}.${y}`][Math.floor(r() * 5)]!;
  };
  return [
    `Kit.init({ apiKey: '${pub()}', redact: true });`,
    `<script src="https://cdn.example.com/kit.js" data-key="${pub()}"></script>`,
    `Publishable key: ${pub()}`,
    `const stripe = Stripe('pk_live_${mixed(r, ALNUM, 24 + Math.floor(r() * 75))}');`,
    `publishableKey: "pk_test_${mixed(r, ALNUM, 24 + Math.floor(r() * 75))}"`,
    `Order reference ${luhnInvalid()} was shipped.`,
    `Card on file: ${luhnInvalid().replace(/(\d{4})(?=\d)/g, '$1 ')}`,
    `ISBN ${isbn13()}`,
    `Published by Penguin Books, ISBN ${isbn10()}.`,
    `See ${isbn13()} for the second edition.`,
    `request id ${uuid()} failed at 10:42`,
    `Merged in commit ${sha()} (short ${pick(r, HEX, 7)}).`,
    `git checkout ${sha()}`,
    `The price dropped to ${price()} last week.`,
    `Total: ${price()} (incl. VAT)`,
    `Published on ${date()}, updated ${date()}.`,
    `The war lasted from ${year()} to ${year()}; between ${year()}-${year()} the population grew to ${g(1)},${g(3)},${g(3)}.`,
    `Page ${g(2)} of ${g(3)} — ${g(1)}.${g(2)}% growth, version ${g(1)}.${g(2)}.${g(1)}`,
    `max_tokens: ${g(4)}\ntemperature: 0.${g(1)}`,
    'The password field is required. Forgot your password? Reset it from the login page.',
    'A token is a unit of text; the secret to good prompts is clarity.',
    'password: ********',
    'password=<your password>',
    'API_KEY=${API_KEY}',
    'Set token: YOUR_TOKEN in the config.',
    'Her secretary booked the flight.',
    'Password: must be at least 12 characters. Token: see the Tokens page. Secret: Top-Secret Clearance.',
    'Authorization: required for every request; the bearer of this letter is a friend.',
    `integrity="sha384-${pick(r, B64, 64)}"`,
    `color: #${pick(r, HEX, 6)}; background: #${pick(r, HEX, 3)};`,
    `Coordinates ${g(2)}.${g(6)}, -${g(3)}.${g(6)}`,
    `Tracking number 1Z${pick(r, ALNUM.slice(0, 36).toUpperCase(), 16)}`,
    'sk-learn and task-runner are package names; so is sk-spinner-circle, and .sk-fading-circle-container-inner is a CSS class.',
    `The model ${['gpt-4o-mini', 'claude-3-5-sonnet-20241022', 'llama-3.1-8b-instruct'][Math.floor(r() * 3)]} answered in ${g(3)} ms.`,
  ];
}

function luhn(d: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let x = +d[i]!;
    if (dbl && (x *= 2) > 9) x -= 9;
    sum += x;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

function fill(template: string, value: string, kind: Kind): Case {
  const spans: Span[] = [];
  let text = '';
  let rest = template;
  for (;;) {
    const i = rest.indexOf('{v}');
    if (i === -1) break;
    text += rest.slice(0, i);
    spans.push({ start: text.length, end: text.length + value.length, kind });
    text += value;
    rest = rest.slice(i + 3);
  }
  return { text: text + rest, spans };
}

export function secretCases(seed = 20_240_601, perShape = 12): Case[] {
  const r = rng(seed);
  const cases: Case[] = [];
  for (const [id, gen] of Object.entries(SECRET_SHAPES)) {
    for (let i = 0; i < perShape; i++) {
      const template = TOKEN_TEMPLATES[(i + id.length) % TOKEN_TEMPLATES.length]!;
      cases.push({ ...fill(template, gen(r), 'secret'), tag: id });
    }
  }
  for (const [id, gen] of Object.entries(ASSIGNED_SHAPES)) {
    const templates = ASSIGNMENT_TEMPLATES[id]!;
    for (let i = 0; i < perShape * 2; i++) cases.push({ ...fill(templates[i % templates.length]!, gen(r), 'secret'), tag: id });
  }
  // URL credentials (a connection string shown in docs or an error page).
  for (let i = 0; i < perShape; i++) {
    const pw = mixed(r, ALNUM + '_-', 12 + Math.floor(r() * 12));
    const scheme = ['postgres', 'mysql', 'mongodb+srv', 'redis', 'https'][i % 5]!;
    cases.push({ ...fill(`DATABASE_URL=${scheme}://app_user:{v}@db.internal.example.com:5432/app`, pw, 'secret'), tag: 'url_password' });
  }
  for (let i = 0; i < 10; i++) for (const text of negatives(r)) cases.push({ text, spans: [], tag: 'negative' });
  return cases;
}

function writeJsonl(path: string, cases: readonly unknown[]): void {
  writeFileSync(path, cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
}

export function main(argv: string[]): void {
  const shared = resolve(argv[0] ?? join(process.cwd(), '..', 'shared', 'eval'));
  const outDir = resolve('.tmp', 'eval');
  mkdirSync(outDir, { recursive: true });
  const presidio = presidioCases(JSON.parse(readFileSync(join(shared, 'pii', 'synth_dataset_v2.json'), 'utf8')));
  const split = presidioSplit(presidio);
  const squad = squadCases(JSON.parse(readFileSync(join(shared, 'squad', 'dev-v2.0.cs224n-half.json'), 'utf8')));
  const gitleaks = gitleaksRuleCases(join(shared, 'secrets', 'gitleaks-rules'));
  const sets: [string, readonly unknown[]][] = [
    ['presidio', presidio], ['presidio-dev', split.dev], ['presidio-heldout', split.heldout],
    ['gitleaks-dev', gitleaks.dev], ['gitleaks-heldout', gitleaks.heldout], ['secrets', secretCases()],
    ['squad', squad], ['pages', pageCases(join(shared, 'pages'))],
  ];
  for (const [name, cases] of sets) {
    writeJsonl(join(outDir, `redaction-${name}.jsonl`), cases);
    console.log(`${cases.length} cases -> .tmp/eval/redaction-${name}.jsonl   (npm run eval -- redaction .tmp/eval/redaction-${name}.jsonl)`);
  }
  console.log(`Presidio development templates: ${split.devTemplates.join(' ')}`);
}

if (process.argv[1]?.endsWith('build-redaction-cases.ts')) main(process.argv.slice(2));
