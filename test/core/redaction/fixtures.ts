import type { RedactKind } from '../../../core/config/types.js';
import { formatKey } from '../../../core/keys/key-format.js';

/**
 * Redaction fixtures walked by one loop in create-redactor.test.ts. A positive lists the exact values that must
 * be masked (with the kind the region must carry); a negative must come back unchanged with redact: true.
 * Secret-shaped values are assembled at run time so that no file in the repository holds a literal key.
 */
export interface Positive {
  readonly name: string;
  readonly text: string;
  readonly masked: readonly (readonly [RedactKind, string])[];
  /** The values are masked only because of their surroundings (a key name, a card or phone word). */
  readonly contextual?: true;
}
export interface Negative { readonly name: string; readonly text: string }

const j = (...parts: string[]) => parts.join('');
const body = (n: number, seed = 7) => {
  const alphabet = 'aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2uV';
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[(i * seed + 3) % alphabet.length];
  return s;
};
const kitSec = formatKey('secret', Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1));
const kitPub = formatKey('publishable', Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1));
const stripeLive = j('sk', '_live_', body(24));
const stripeTest = j('sk', '_test_', body(30, 5));
const stripeRestricted = j('rk', '_live_', body(24, 11));
const stripePub = j('pk', '_live_', body(24));
const ghp = j('gh', 'p_', body(36));
const gho = j('gh', 'o_', body(36, 5));
const ghu = j('gh', 'u_', body(36, 11));
const ghs = j('gh', 's_', body(36, 13));
const ghPat = j('github', '_pat_', body(22), '_', body(59, 5));
const awsId = j('AK', 'IA', 'QWERTYUIOPASDFGH');
const awsSecret = body(40, 9).replace(/a/g, '/');
const google = j('AI', 'za', body(35, 3));
const slack = j('xo', 'xb-', '123456789012-1234567890123-', body(24));
const openai = j('sk', '-proj-', body(74), 'T3BlbkFJ', body(74, 5));
const openaiLegacy = j('sk', '-', body(48, 3));
const anthropic = j('sk', '-ant-api03-', body(93, 5), 'AA');
const jwt = j('ey', 'JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'ey', 'JzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c');
const pem = j('-----BEGIN ', 'RSA PRIVATE KEY-----\n', body(64), '\n', body(64, 5), '\n', body(20, 3), '==\n-----END RSA PRIVATE KEY-----');
const bearer = body(40, 13);
const hex = (n: number, seed = 7) => Array.from({ length: n }, (_, i) => '0123456789abcdef'[(i * seed + 5) % 16]).join('');
const notion = j('nt', 'n_', '45647615172', body(35, 5));
const sourcegraph = j('sg', 'p_', hex(40));
const openshift = j('sha256', '~', body(43, 11));
const azure = j('Ab', 'c1', 'Q~', body(34, 13));
const bedrock = j('ABSK', 'QmVkcm9ja0FQSUtleS1', body(108, 5), '=');
const pscale = j('pscale', '_tkn_', body(40, 3));
const rubygems = j('rubygems', '_', hex(48, 5));
const glft = j('gl', 'ft-', body(20, 11));
const glpatRoutable = j('gl', 'pat-', body(27, 13), '.', '01', 'a2b3c4d');
const assigned = body(32, 3);
const dynatrace = j('dt0c01', '.', body(24, 5), '.', body(64, 11));
const clojars = j('CLOJARS', '_', body(60, 13));
const harness = j('pat', '.', body(22, 3), '.', body(24, 5), '.', body(20, 7));
const octopus = j('API', '-', body(26, 3).toUpperCase());
// age keys are Bech32: one with a valid checksum is a real key even when its data is all zero (filler-looking);
// gitleaks' sample, all Q, fails the checksum and stays filler.
const ageZero = j('AGE-SECRET', '-KEY-1', 'Q'.repeat(52), '8H00W3');
const ageRandom = j('AGE-SECRET', '-KEY-1', 'H77J6WUQ6S0WQJN4FNPWSPFPAAJWNHS69KLMTJZJ9QH0LFNN5AAYPF9RNS');

export const POSITIVES: readonly Positive[] = [
  // secrets
  { name: 'a kit_sec_ key in a server snippet', text: `KIT_SECRET_KEY=${kitSec}\n`, masked: [['secret', kitSec]] },
  { name: 'a kit_sec_ key next to a kit_pub_ key', text: `pub ${kitPub} sec ${kitSec}.`, masked: [['secret', kitSec]] },
  { name: 'Stripe live and test secret keys', text: `stripe.setKey("${stripeLive}"); // test: ${stripeTest}`, masked: [['secret', stripeLive], ['secret', stripeTest]] },
  { name: 'a Stripe restricted key', text: `Restricted key ${stripeRestricted}, read-only.`, masked: [['secret', stripeRestricted]] },
  { name: 'GitHub tokens of every prefix', text: `${ghp} ${gho}\n${ghu}, ${ghs}`, masked: [['secret', ghp], ['secret', gho], ['secret', ghu], ['secret', ghs]] },
  { name: 'a GitHub fine-grained token', text: `token: "${ghPat}"`, masked: [['secret', ghPat]] },
  { name: 'an AWS key pair in credentials format', text: `[default]\naws_access_key_id = ${awsId}\naws_secret_access_key = ${awsSecret}\n`, masked: [['secret', awsId], ['secret', awsSecret]] , contextual: true },
  { name: 'a Google API key in a URL', text: `https://maps.example.com/api?key=${google}&q=Paris`, masked: [['secret', google]] },
  { name: 'a Slack bot token', text: `SLACK_BOT_TOKEN=${slack}`, masked: [['secret', slack]] },
  { name: 'OpenAI project and legacy keys', text: `OPENAI_API_KEY=${openai}\nold: ${openaiLegacy}`, masked: [['secret', openai], ['secret', openaiLegacy]] },
  { name: 'an Anthropic key', text: `client = Anthropic(api_key="${anthropic}")`, masked: [['secret', anthropic]] },
  { name: 'a JWT in prose', text: `The session cookie was ${jwt}.`, masked: [['secret', jwt]] },
  { name: 'a PEM private key block', text: `key file:\n${pem}\nend of file`, masked: [['secret', pem]] },
  { name: 'a PEM block cut off by truncation', text: `${pem.slice(0, 120)}`, masked: [['secret', pem.slice(0, 120)]] },
  { name: 'an Authorization: Bearer header', text: `curl -H "Authorization: Bearer ${bearer}" https://api.example.com`, masked: [['secret', bearer]] , contextual: true },
  { name: 'password= and secret= assignments', text: 'DB_PASSWORD=Tr0ub4dor&3x\nclient_secret=s3cr3tValue9', masked: [['secret', 'Tr0ub4dor&3x'], ['secret', 's3cr3tValue9']] , contextual: true },
  { name: 'JSON and YAML credentials', text: '{"user": "ann", "password": "correct horse 42"}\nsmtp:\n  password: hunter22\n  api_token: Xy9_kLm2Qp', masked: [['secret', 'correct horse 42'], ['secret', 'hunter22'], ['secret', 'Xy9_kLm2Qp']] , contextual: true },
  { name: 'a password in a connection URL', text: 'postgres://app:Pa55w0rdX@db.internal:5432/app', masked: [['secret', 'Pa55w0rdX']] , contextual: true },
  { name: 'prefixed tokens added from gitleaks rules (Notion, Sourcegraph, OpenShift, Azure AD)', text: `${notion}\nuse ${sourcegraph} or ${openshift}; secret ${azure}.`, masked: [['secret', notion], ['secret', sourcegraph], ['secret', openshift], ['secret', azure]] },
  { name: 'a bare Amazon Bedrock long-lived API key', text: `export key ${bedrock} before the call`, masked: [['secret', bedrock]] },
  { name: 'self-identifying vendor tokens added in session 10 (Dynatrace, Clojars, Harness, Octopus Deploy)', text: `token ${dynatrace}; deploy with ${clojars}\n${harness} and ${octopus}.`, masked: [['secret', dynatrace], ['secret', clojars], ['secret', harness], ['secret', octopus]] },
  { name: 'age secret keys with a valid Bech32 checksum, one of them all zero', text: `# created: 2026-01-01\n${ageRandom}\nweak: ${ageZero}`, masked: [['secret', ageRandom], ['secret', ageZero]] },
  { name: 'self-identifying vendor tokens in prose (PlanetScale, RubyGems, GitLab feed, routable GitLab PAT)', text: `use ${pscale} or ${rubygems}; feed ${glft}, pat ${glpatRoutable}.`, masked: [['secret', pscale], ['secret', rubygems], ['secret', glft], ['secret', glpatRoutable]] },
  { name: 'assignments in typed, PHP, make and call forms', text: `var apiToken string = "${assigned}"\n$apiToken .= "${assigned}"\nAPI_TOKEN ?= "${assigned}"\nAPI_TOKEN ::= "${assigned}"\nSystem.setProperty("API_TOKEN", "${assigned}")`, masked: [['secret', assigned]], contextual: true },
  { name: 'credentials in elements, settings attributes and curl -u', text: `<apiToken>\n  ${stripeLive.slice(3)}\n</apiToken>\n<add key="ClearTextPassword" value="${bearer.slice(0, 16)}" />\ncurl -u admin:${bearer.slice(20)} https://api.example.com`, masked: [['secret', stripeLive.slice(3)], ['secret', bearer.slice(0, 16)], ['secret', `admin:${bearer.slice(20)}`]], contextual: true },
  { name: 'a token in a query string', text: 'https://example.com/reset?token=9f8e7d6c5b4a&lang=en', masked: [['secret', '9f8e7d6c5b4a']] , contextual: true },
  // pii
  { name: 'emails in prose and angle brackets', text: 'Write to jane.doe+kit@example.co.uk or <ops@sub.example.org>.', masked: [['email', 'jane.doe+kit@example.co.uk'], ['email', 'ops@sub.example.org']] },
  { name: 'an internationalised email', text: 'Contact: josé.müller@bücher.de today', masked: [['email', 'josé.müller@bücher.de']] },
  { name: 'Visa, Mastercard and Amex numbers in common layouts', text: 'Visa 4111 1111 1111 1111, MC 5500-0000-0000-0004, Amex 3782 822463 10005.', masked: [['card', '4111 1111 1111 1111'], ['card', '5500-0000-0000-0004'], ['card', '3782 822463 10005']] },
  { name: 'a card followed by its expiry', text: 'Card: 4242 4242 4242 4242 12/27 CVC 123', masked: [['card', '4242 4242 4242 4242']] },
  { name: 'a 19-digit and a 12-digit Maestro card', text: 'card 6759649826438453 and my maestro card 501864667909', masked: [['card', '6759649826438453'], ['card', '501864667909']] , contextual: true },
  { name: 'IBANs compact, grouped and lower case', text: 'IBAN DE89370400440532013000; FR14 2004 1010 0505 0001 3M02 606; gb82west12345698765432.', masked: [['iban', 'DE89370400440532013000'], ['iban', 'FR14 2004 1010 0505 0001 3M02 606'], ['iban', 'gb82west12345698765432']] },
  { name: 'a US SSN', text: 'SSN: 536-22-1234.', masked: [['ssn', '536-22-1234']] },
  { name: 'international phone numbers', text: 'Call +44 20 7946 0958 or +1 (415) 555-2671, fax 0049 30 901820.', masked: [['phone', '+44 20 7946 0958'], ['phone', '+1 (415) 555-2671'], ['phone', '0049 30 901820']] },
  { name: 'national phone numbers with a phone word', text: 'Tel: 030 901820\nMobile: 06 12 34 56 78\nphone (415) 555-2671 x204', masked: [['phone', '030 901820'], ['phone', '06 12 34 56 78'], ['phone', '(415) 555-2671 x204']] , contextual: true },
  { name: 'a phone in Chinese text', text: '聯絡電話：03-584-7231', masked: [['phone', '03-584-7231']] , contextual: true },
];

const luhnBad = '4111 1111 1111 1112';
export const NEGATIVES: readonly Negative[] = [
  { name: 'a kit_pub_ key', text: `Kit.init({ apiKey: '${kitPub}', redact: true });` },
  { name: 'Stripe publishable keys', text: `Stripe('${stripePub}'); publishableKey: "${j('pk', '_test_', body(30))}"` },
  { name: 'a Luhn-invalid card-like number', text: `Card on file: ${luhnBad}; order 4111111111111112` },
  { name: 'ISBNs', text: 'ISBN 978-0-14-301867-4 and ISBN 0-670-83298-7; see also 978-1-86940-214-3.' },
  { name: 'a UUID and git SHAs', text: 'request 123e4567-e89b-42d3-a456-426614174000 at commit 3f2a9c1b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90 (3f2a9c1)' },
  { name: 'prices and quantities', text: 'Now $1,299.99 (was €1.499,00); 12 500 000 units; 2,111.72 -14.43 (-0.68%)' },
  { name: 'dates and times', text: 'Published 2024-03-15, updated 15/03/2024 at 10:20, period 1985-1995, (2011-02-02)' },
  { name: 'year lists and table columns', text: 'Versions:  00   01   02   03   04 ; 22 Dec 2016  651    22 Dec' },
  { name: 'an IP address and a version', text: 'Server 192.168.100.200 runs v10.2.3.4 since build 20240315' },
  { name: 'prose about passwords and tokens', text: 'The password field is required. A token is a unit of text. Her secretary booked it. max_tokens: 4096' },
  { name: 'placeholders in config examples', text: 'password: ********\napi_key=<your key>\nAPI_TOKEN=${API_TOKEN}\nsecret: YOUR_SECRET' },
  { name: 'hyphenated words after sk-', text: 'sk-learn, task-runner and .sk-fading-circle-container-inner are names' },
  { name: 'retina asset names', text: 'icon@2x.png and logo@3x.webp' },
  { name: 'an SSN in a never-issued range', text: 'ids 000-12-3456, 666-12-3456, 912-34-5678, 123-00-4567, 123-45-0000' },
  { name: 'a bare number without phone context', text: 'Order number 10023456 shipped; population 8336817.' },
  { name: 'an email-like npm scope and a mention', text: 'install @scope/pkg and ping @alice on chat' },
  // Shapes found on development text (the Markdown docs of npm packages), never on the eval sets.
  { name: 'changelog headings and log lines', text: '## 0.95.15 - 22 December, 2021\n### 3.1.2 2026-07-08\n# 1.0.0 - 2016-01-07\nmessage {"time":1591195061437}\nupdated at Sat Oct 08 2022 21:35:10' },
  { name: 'number sequences', text: 'call it with {1..9} => 1 2 3 4 5 6 7 8 9 or {1..20..3} => 1 4 7 10 13 16 19' },
  { name: 'filler tokens in docs', text: `ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, hvs.XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX, ${j('AK', 'IAIOSFODNN7EXAMPLE')}, A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX, ${j('AGE-SECRET', '-KEY-1', 'Q'.repeat(58))}` },
  { name: 'a list of key names and shell references', text: "paths: ['password', 'secrets.*']\ncurl -sL --user \"$1:$2\" \"$3\"" },
];
