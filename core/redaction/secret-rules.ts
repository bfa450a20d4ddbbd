/**
 * Shapes of provider keys and tokens, each found by a literal trigger and confirmed by a sticky regex that
 * starts at the trigger (JWTs, PEM blocks and URL passwords are found in find-secrets.ts). Shapes adapted from gitleaks v8.30.1 `config/gitleaks.toml` (MIT, © Zachary Rice;
 * see shared/eval/secrets), simplified to the token itself: Kit masks the value wherever it appears, so the
 * assignment context gitleaks sometimes requires is not needed for these prefixed shapes.
 */
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
  { id: 'gitlab', triggers: ['glpat-', 'gldt-', 'glrt-', 'glptt-'], re: /gl(?:pat|dt|rt|ptt)-[\w-]{20,60}/y },
  { id: 'npm', triggers: ['npm_'], re: /npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/y },
  { id: 'sendgrid', triggers: ['SG.'], re: /SG\.[\w=.-]{66}/y },
  { id: 'huggingface', triggers: ['hf_'], re: /hf_[A-Za-z]{34}(?![A-Za-z0-9])/y },
  { id: 'pypi', triggers: ['pypi-AgEIcHlwaS5vcmc'], re: /pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}/y },
  { id: 'shopify', triggers: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], re: /shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/y },
  { id: 'digitalocean', triggers: ['dop_v1_', 'doo_v1_', 'dor_v1_'], re: /do[opr]_v1_[a-f0-9]{64}/y },
  { id: 'age', triggers: ['AGE-SECRET-KEY-1'], re: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/y },
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
  { id: 'aws-bedrock-api-key', triggers: ['ABSKQmVkcm9ja0FQSUtleS'], re: /ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{91,251}={0,2}(?![A-Za-z0-9+/=])/y },
];