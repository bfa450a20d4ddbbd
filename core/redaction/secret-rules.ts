/**
 * Shapes of provider keys and tokens, each found by a literal trigger and confirmed by a sticky regex that
 * starts at the trigger (JWTs, PEM blocks and URL passwords are found in find-secrets.ts). Shapes adapted from gitleaks v8.30.1 `config/gitleaks.toml` (MIT, © Zachary Rice;
 * see shared/eval/secrets), simplified to the token itself: Kit masks the value wherever it appears, so the
 * assignment context gitleaks sometimes requires is not needed for these prefixed shapes.
 */
import { bech32Valid } from './checksums.js';

export interface TokenRule {
  /** Short name for docs and tests. */
  readonly id: string;
  /** Case-sensitive literal(s) that start every match; the trigger scan looks for these only. */
  readonly triggers: readonly string[];
  /** Sticky regex run at the trigger position; its whole match is the secret. */
  readonly re: RegExp;
  /** Extra check on the match (e.g. character-class mix), when the shape alone is too loose. */
  readonly accept?: (value: string) => boolean;
  /** What may come just before the trigger and belongs to the token (a URL's scheme): `$`-anchored. */
  readonly lead?: RegExp;
  /**
   * gitleaks' entropy threshold for the rule the shape was ported from: a match whose Shannon entropy (bits per
   * character) is not above it is skipped, as gitleaks skips it.
   */
  readonly entropy?: number;
  /**
   * The format's own checksum: a match that passes it is a real key however it looks, so the filler check (runs of
   * one character, `EXAMPLE`) is skipped for it. A match that fails it is still masked unless it is filler.
   */
  readonly checksum?: (value: string) => boolean;
}

/** Shannon entropy of `s` in bits per character (gitleaks' shannonEntropy; tokens are ASCII). */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) counts.set(s.charCodeAt(i), (counts.get(s.charCodeAt(i)) ?? 0) + 1);
  let e = 0;
  for (const n of counts.values()) {
    const f = n / s.length;
    e -= f * Math.log2(f);
  }
  return e;
}

/** True when the body mixes upper case, lower case and digits, as generated keys do and words do not. */
export function mixedClasses(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value);
}

export const TOKEN_RULES: readonly TokenRule[] = [
  // Kit's own secret keys (CONTRACT §1). `kit_pub_` keys are publishable by design and deliberately absent.
  { id: 'kit-secret-key', triggers: ['kit_sec_'], re: /kit_sec_[0-9A-Za-z]{16,64}/y },
  // Stripe secret and restricted keys; publishable `pk_` keys are public by design.
  { id: 'stripe', triggers: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'], re: /[sr]k_(?:live|test|prod)_[0-9A-Za-z]{10,247}/y },
  { id: 'github', triggers: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], re: /gh[pousr]_[0-9A-Za-z]{36,251}/y },
  { id: 'github-fine-grained', triggers: ['github_pat_'], re: /github_pat_\w{22,244}/y },
  { id: 'aws-access-key-id', triggers: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], re: /(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Za-z0-9])/y },
  { id: 'google-api-key', triggers: ['AIza'], re: /AIza[\w-]{35}(?![\w-])/y },
  { id: 'slack-token', triggers: ['xoxa-', 'xoxb-', 'xoxc-', 'xoxd-', 'xoxe-', 'xoxo-', 'xoxp-', 'xoxr-', 'xoxs-', 'xoxe.'], re: /xox[a-z](?:-|\.xox[a-z]-)[0-9A-Za-z-]{10,250}/y },
  { id: 'slack-app-token', triggers: ['xapp-'], re: /xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+/y },
  { id: 'slack-webhook', triggers: ['hooks.slack.com/'], re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/]{20,100}/y, lead: /(?:https?:\/\/)?$/ },
  { id: 'anthropic', triggers: ['sk-ant-'], re: /sk-ant-[a-z]{2,8}\d{2}-[\w-]{32,200}/y },
  // OpenAI project, service-account, admin and legacy keys. Hyphenated words (`sk-spinner-…`) lack the class mix.
  { id: 'openai', triggers: ['sk-'], re: /sk-(?:(?:proj|svcacct|admin|None)-)?[\w-]{20,250}/y, accept: (v) => mixedClasses(v.slice(3)) },
  // Routable GitLab tokens end in `.` and nine base-36 characters (gitleaks gitlab-pat-routable, -runner-…-routable).
  { id: 'gitlab', triggers: ['glpat-', 'gldt-', 'glrt-', 'glptt-'], re: /gl(?:pat|dt|rt|ptt)-[\w-]{20,60}(?:\.[0-9a-z]{9}(?!\w))?/y },
  { id: 'npm', triggers: ['npm_'], re: /npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/y },
  { id: 'sendgrid', triggers: ['SG.'], re: /SG\.[\w=.-]{66}/y },
  { id: 'huggingface', triggers: ['hf_'], re: /hf_[A-Za-z]{34}(?![A-Za-z0-9])/y },
  { id: 'pypi', triggers: ['pypi-AgEIcHlwaS5vcmc'], re: /pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}/y },
  { id: 'shopify', triggers: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], re: /shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/y },
  { id: 'digitalocean', triggers: ['dop_v1_', 'doo_v1_', 'dor_v1_'], re: /do[opr]_v1_[a-f0-9]{64}/y },
  // Bech32 with its checksum: gitleaks' only sample, an all-Q key, fails it (a typed placeholder, treated as filler).
  { id: 'age', triggers: ['AGE-SECRET-KEY-1'], re: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/y, checksum: bech32Valid },
  { id: 'square', triggers: ['sq0atp-', 'sq0csp-'], re: /sq0(?:atp|csp)-[\w-]{22,60}/y },
  { id: 'square-production', triggers: ['EAAA'], re: /EAAA[\w-]{22,60}(?![\w-])/y },
  { id: 'linear', triggers: ['lin_api_'], re: /lin_api_[A-Za-z0-9]{40}/y },
  { id: 'postman', triggers: ['PMAK-'], re: /PMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}/y },
  { id: 'vault', triggers: ['hvs.'], re: /hvs\.[\w-]{90,120}/y },
  { id: 'grafana', triggers: ['glsa_'], re: /glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}/y },
  { id: 'databricks', triggers: ['dapi'], re: /dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])/y },
  { id: 'doppler', triggers: ['dp.pt.'], re: /dp\.pt\.[A-Za-z0-9]{43}/y },
  { id: 'atlassian', triggers: ['ATATT3'], re: /ATATT3[\w=-]{186}/y },
  { id: 'sentry', triggers: ['sntrys_'], re: /sntrys_eyJ[\w+/=]{50,500}/y },
  // Added on the development half of gitleaks' rule cases (docs/redaction.md, "gitleaks rule cases"): prefixed
  // shapes whose development true positives Kit missed. Shapes from gitleaks cmd/generate/config/rules (MIT).
  { id: '1password-secret-key', triggers: ['A3-'], re: /A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}/y },
  { id: '1password-service-account', triggers: ['ops_eyJ'], re: /ops_eyJ[A-Za-z0-9+/]{250,5000}={0,3}/y },
  { id: 'adobe-client-secret', triggers: ['p8e-'], re: /p8e-[A-Za-z0-9]{32}/y },
  { id: 'alibaba-access-key-id', triggers: ['LTAI'], re: /LTAI[A-Za-z0-9]{20}/y },
  { id: 'easypost', triggers: ['EZAK', 'EZTK'], re: /EZ[AT]K[A-Za-z0-9]{54}/y },
  { id: 'facebook-page-token', triggers: ['EAAM', 'EAAC'], re: /EAA[MC][A-Za-z0-9]{100,1000}/y },
  { id: 'huggingface-org', triggers: ['api_org_'], re: /api_org_[A-Za-z]{34}/y },
  { id: 'jwt-base64', triggers: ['ZXlK'], re: /ZXlK[A-Za-z0-9+/_-]{40,4000}={0,2}/y },
  { id: 'notion', triggers: ['ntn_'], re: /ntn_\d{11}[A-Za-z0-9]{35}/y },
  { id: 'openshift', triggers: ['sha256~'], re: /sha256~[\w-]{43}/y },
  { id: 'sourcegraph', triggers: ['sgp_'], re: /sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}/y },
  { id: 'teams-webhook', triggers: ['webhook.office.com/webhookb2/'], re: /webhook\.office\.com\/webhookb2\/[\w@./-]{40,300}/y, lead: /https:\/\/[a-z0-9-]+\.$/ },
  // Amazon Bedrock long-lived API keys: `ABSK` and the base64 of "BedrockAPIKey-" (gitleaks
  // aws-amazon-bedrock-api-key-long-lived; before, found only inside a `key = value` assignment).
  // Session 9: gitleaks' self-identifying tokens (a vendor prefix of four or more characters with its separator, most
  // built with gitleaks' GenerateUniqueTokenRegex) that Kit found only beside a key name; shapes and entropy
  // thresholds as gitleaks writes them.
  { id: 'flyio', triggers: ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'], re: /(?:fo1_[\w-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,2000}={0,3}|fm2_[A-Za-z0-9+/]{100,2000}={0,3})(?![\w+/=-])/y, entropy: 4 },
  { id: 'frameio', triggers: ['fio-u-'], re: /fio-u-[A-Za-z0-9_=-]{64}/y },
  { id: 'gitlab-other-tokens', triggers: ['glcbt-', 'glffct-', 'glft-', 'glimt-', 'glagent-', 'gloas-', 'glsoat-'], re: /gl(?:cbt-[0-9A-Za-z]{1,5}_[\w-]{20}|ffct-[\w-]{20}|ft-[\w-]{20}|imt-[\w-]{25}|agent-[\w-]{50}|oas-[\w-]{64}|soat-[\w-]{20})(?![\w-])/y, entropy: 3 },
  { id: 'gitlab-rrt', triggers: ['GR1348941'], re: /GR1348941[\w-]{20}(?![\w-])/y, entropy: 3 },
  { id: 'grafana-cloud', triggers: ['glc_'], re: /glc_[A-Za-z0-9+/]{32,400}={0,3}(?![A-Za-z0-9+/=])/y, entropy: 3 },
  { id: 'heroku-v2', triggers: ['HRKU-'], re: /HRKU-AA[\w-]{58}(?![\w-])/y, entropy: 4 },
  { id: 'infracost', triggers: ['ico-'], re: /ico-[A-Za-z0-9]{32}(?![\w-])/y, entropy: 3 },
  { id: 'perplexity', triggers: ['pplx-'], re: /pplx-[A-Za-z0-9]{48}(?![\w-])/y, entropy: 4 },
  { id: 'planetscale', triggers: ['pscale_'], re: /pscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}(?![\w=.-])/y, entropy: 3 },
  { id: 'prefect', triggers: ['pnu_'], re: /pnu_[A-Za-z0-9]{36}(?![\w-])/y, entropy: 2 },
  { id: 'pulumi', triggers: ['pul-'], re: /pul-[a-f0-9]{40}(?![\w-])/y, entropy: 2 },
  { id: 'readme', triggers: ['rdme_'], re: /rdme_[a-z0-9]{70}(?![\w-])/y, entropy: 2 },
  { id: 'rubygems', triggers: ['rubygems_'], re: /rubygems_[a-f0-9]{48}(?![\w-])/y, entropy: 2 },
  { id: 'sendinblue', triggers: ['xkeysib-'], re: /xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}(?![\w-])/y, entropy: 2 },
  { id: 'sentry-user', triggers: ['sntryu_'], re: /sntryu_[a-f0-9]{64}(?![\w-])/y, entropy: 3.5 },
  { id: 'settlemint', triggers: ['sm_pat_', 'sm_aat_', 'sm_sat_'], re: /sm_[aps]at_[A-Za-z0-9]{16}(?![\w-])/y, entropy: 3 },
  { id: 'shippo', triggers: ['shippo_live_', 'shippo_test_'], re: /shippo_(?:live|test)_[a-fA-F0-9]{40}(?![\w-])/y, entropy: 2 },
  { id: 'vault-batch', triggers: ['hvb.'], re: /hvb\.[\w-]{138,300}(?![\w-])/y, entropy: 4 },
  { id: 'flutterwave', triggers: ['FLWSECK_TEST-'], re: /FLWSECK_TEST-(?:[A-Ha-h0-9]{32}-X|[A-Ha-h0-9]{12})(?![\w-])/y, entropy: 2 },
  { id: 'scalingo', triggers: ['tk-us-'], re: /tk-us-[\w-]{48}(?![\w-])/y, entropy: 2 },
  { id: 'aws-bedrock-api-key', triggers: ['ABSKQmVkcm9ja0FQSUtleS'], re: /ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{91,251}={0,2}(?![A-Za-z0-9+/=])/y, entropy: 3 },
  // Session 10: the remaining unclaimed gitleaks rules whose regex is a token with its own vendor literal (not a key
  // name beside a generic alphabet), chosen on the development half (docs/redaction.md, "Choosing shapes").
  { id: 'authress', triggers: ['sc_', 'ext_', 'scauth_', 'authress_'], re: /(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}(?![\w+/=-])/y, entropy: 2 },
  { id: 'clojars', triggers: ['CLOJARS_', 'clojars_'], re: /(?:CLOJARS|clojars)_[A-Za-z0-9]{60}/y, entropy: 2 },
  { id: 'duffel', triggers: ['duffel_'], re: /duffel_(?:test|live)_[A-Za-z0-9_=-]{43}/y, entropy: 2 },
  { id: 'dynatrace', triggers: ['dt0c01.'], re: /dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}/y, entropy: 4 },
  { id: 'harness', triggers: ['pat.', 'sat.'], re: /(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}/y },
  { id: 'octopus-deploy', triggers: ['API-'], re: /API-[A-Z0-9]{26}(?![\w-])/y, entropy: 3 },
  { id: 'intra42', triggers: ['s-s4t2ud-', 's-s4t2af-'], re: /s-s4t2(?:ud|af)-[a-fA-F0-9]{64}(?![\w-])/y, entropy: 3 },
];