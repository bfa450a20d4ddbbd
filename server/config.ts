import { resolve } from 'node:path';
import { z } from 'zod';
import type { DatabaseLocation } from '../adapters/node/knex-database.js';
import type { Tier } from '../core/ports/account-store.port.js';
import { PlanOverrides, resolvePlans, type PlanLimits } from './plans.js';

/** Everything the server reads from the environment, validated once at start (docs/operations.md lists each). */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseLocation;
  /** HS256 secret for dashboard JWTs; null = generate once and keep it in the database. */
  readonly jwtSecret: string | null;
  /** Proxy hops whose `X-Forwarded-For` entries are trusted; 0 = use the socket address. */
  readonly trustProxyHops: number;
  /** Origins allowed to call the dashboard routes from a browser; '*' = any (they use bearer tokens, not cookies). */
  readonly corsOrigins: '*' | readonly string[];
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How long a verified key may be served from the in-process cache (ms); default 5000, at most 60000. */
  readonly keyCacheTtlMs: number;
  /** How often last-use times of keys are written (ms); default 30000. */
  readonly lastUsedFlushMs: number;
  readonly loginLimits: {
    /** Failed logins per email per window; default 10. */
    readonly perEmail: number;
    /** Login attempts per client IP per window; default 50. */
    readonly perIp: number;
    /** Window length in seconds; default 900. */
    readonly windowSeconds: number;
  };
  /** Signups per client IP per hour; default 20. */
  readonly signupsPerIpPerHour: number;
  /** Invitation lifetime in seconds; default 7 days. */
  readonly invitationTtlSeconds: number;
  readonly botChallenge: {
    readonly provider: 'altcha' | 'turnstile' | 'none';
    readonly turnstileSecret: string | null;
    readonly turnstileSiteKey: string | null;
    /** Turnstile's siteverify URL; default Cloudflare's. */
    readonly turnstileVerifyUrl: string | null;
    /** ALTCHA work bound (about half of it in hashes on average); default 100 000. */
    readonly altchaMaxNumber: number;
    /** Lifetime of an ALTCHA challenge; default 300 s. */
    readonly altchaTtlSeconds: number;
  };
  /** An OpenAI-compatible backend; null = the built-in extractive engine. */
  readonly inference: { readonly url: string; readonly model: string; readonly apiKey: string | null } | null;
  /** Stripe billing; null = not configured (`billing_unavailable`). `apiBase` points stripe-node elsewhere (tests, mocks). */
  readonly stripe: {
    readonly secretKey: string;
    readonly webhookSecret: string;
    readonly pricePro: string;
    readonly priceBusiness: string;
    readonly apiBase: string | null;
  } | null;
  /** Server-side masking of `/chat` sources (`KIT_REDACT_SOURCES`); null = off. */
  readonly redactSources: { readonly secrets: boolean; readonly pii: boolean } | null;
  /** Limits per tier (CONTRACT §6 defaults, `KIT_PLAN_LIMITS` overrides). */
  readonly plans: Readonly<Record<Tier, PlanLimits>>;
  /** Interval of `: keep-alive` comments on `/chat` streams; default 10 000 ms (the contract asks for ≤ 15 s). */
  readonly sseKeepAliveMs: number;
  /** How long a `/chat` stream waits for a client that does not read (socket not draining) before it is cut; default 30 000 ms. */
  readonly sseWriteStallMs: number;
  /** How long SIGTERM waits for in-flight `/chat` streams before cutting them; default 25 000 ms. */
  readonly shutdownGraceMs: number;
  /** NODE_ENV as read at start (a bundler may inline `process.env.NODE_ENV`; this value is the real one). */
  readonly nodeEnv: string | null;
  /** HTTP server limits against slow or flooding clients (server/http-server.ts). */
  readonly http: {
    /** Time to receive a request's headers (ms); default 10 000. Slow-header (slowloris) connections end here. */
    readonly headersTimeoutMs: number;
    /** Time to receive a whole request, body included (ms); default 30 000. Responses (SSE) are not limited. */
    readonly requestTimeoutMs: number;
    /** How long an idle keep-alive connection stays open (ms); default 5 000 (raise above a load balancer's idle timeout). */
    readonly keepAliveTimeoutMs: number;
    /** Concurrent connections (or, behind a trusted proxy, requests in flight) per client IP; default 256; 0 = no cap. */
    readonly maxConnectionsPerIp: number;
    /**
     * Connections still sending their first request's headers, all clients together; default 512; 0 = no cap. Past
     * it the oldest such connection is closed (408), so a slow-header flood from many addresses never holds more.
     */
    readonly maxPendingHeaders: number;
  };
  /** GET /v1/config answers per key and client IP per minute; default 120. */
  readonly configRequestsPerMinute: number;
  /** Assistant settings, the question log, feedback and retention (issue 13; docs/privacy.md). */
  readonly insights: {
    /** How long resolved assistant and logging settings are served from memory (ms); default 5000. */
    readonly settingsCacheTtlMs: number;
    /** How often logged questions are written in one batch (ms); default 500. */
    readonly logFlushMs: number;
    /** Questions waiting to be written at most; past it the oldest are dropped (and counted in the log); default 10000. */
    readonly logQueueMax: number;
    /** How often the retention purge runs, across all replicas (minutes); default 60. */
    readonly purgeIntervalMinutes: number;
    /** Feedback posts per browser session per minute; default 10. */
    readonly feedbackPerSessionPerMinute: number;
    /** Beacons per browser session per minute; default 20. */
    readonly beaconsPerSessionPerMinute: number;
    /** Beacons without a session (counts only) per client IP and key per minute; default 30. */
    readonly beaconsPerIpPerMinute: number;
  };
  /** The demo organisation seeded on a fresh database, and where the SDK bundle and demo site are served from. */
  readonly demo: { readonly seed: boolean; readonly sdkDir: string; readonly siteDir: string };
  /** `KIT_DATA_DIR` resolved (the embedded database, and the development mail outbox under it). */
  readonly dataDir: string;
  /** The console (issue 14): its built files, browser sessions, email and password resets (docs/console.md). */
  readonly console: {
    /** Built console files (`KIT_CONSOLE_DIR`, default ./dist/console). */
    readonly dir: string;
    /** Public base URL for links in emails (`KIT_PUBLIC_URL`); null = the request's host when it is a loopback one. */
    readonly publicUrl: string | null;
    /** A browser session ends after this long without a request; default 86 400 s (1 day). */
    readonly sessionIdleSeconds: number;
    /** …and this long after sign-in whatever happens; default 604 800 s (7 days). */
    readonly sessionMaxSeconds: number;
    /** Lifetime of an emailed password-reset link; default 3 600 s. */
    readonly passwordResetTtlSeconds: number;
    /** Password-reset requests per client IP per hour; default 20 (each email address gets at most 5 an hour). */
    readonly passwordResetsPerIpPerHour: number;
  };
  /** Outgoing email: SMTP (`KIT_SMTP_URL`) or, when unset, the development outbox under KIT_DATA_DIR/outbox. */
  readonly mail: { readonly smtpUrl: string | null; readonly from: string };
}

/** The variables read by loadConfig, for docs and error messages. */
export const CONFIG_VARIABLES = Object.freeze([
  'PORT', 'HOST', 'KIT_DATA_DIR', 'DATABASE_URL', 'KIT_DB_POOL_MAX', 'KIT_JWT_SECRET', 'KIT_TRUST_PROXY', 'KIT_CORS_ORIGINS',
  'KIT_LOG_LEVEL', 'KIT_KEY_CACHE_TTL_MS', 'KIT_LAST_USED_FLUSH_MS', 'KIT_LOGIN_MAX_PER_EMAIL', 'KIT_LOGIN_MAX_PER_IP',
  'KIT_LOGIN_WINDOW_SECONDS', 'KIT_SIGNUPS_PER_IP_PER_HOUR', 'KIT_INVITATION_TTL_SECONDS', 'KIT_BOT_CHALLENGE',
  'KIT_TURNSTILE_SECRET', 'KIT_TURNSTILE_SITE_KEY', 'KIT_INFERENCE_URL', 'KIT_INFERENCE_MODEL', 'KIT_INFERENCE_API_KEY',
  'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'KIT_STRIPE_PRICE_PRO', 'KIT_STRIPE_PRICE_BUSINESS', 'KIT_STRIPE_API_BASE',
  'KIT_TURNSTILE_VERIFY_URL', 'KIT_ALTCHA_MAX_NUMBER', 'KIT_ALTCHA_TTL_SECONDS', 'KIT_REDACT_SOURCES', 'KIT_PLAN_LIMITS',
  'KIT_SSE_KEEPALIVE_MS', 'KIT_SSE_WRITE_STALL_MS', 'KIT_SHUTDOWN_GRACE_MS', 'KIT_DEMO', 'KIT_SDK_DIR', 'KIT_DEMO_DIR', 'NODE_ENV',
  'KIT_DATA_DIR_LOCK_WAIT_MS', 'KIT_PGLITE_SHARED_BUFFERS', 'KIT_HEADERS_TIMEOUT_MS', 'KIT_REQUEST_TIMEOUT_MS',
  'KIT_KEEP_ALIVE_TIMEOUT_MS', 'KIT_MAX_CONNECTIONS_PER_IP', 'KIT_MAX_PENDING_HEADERS', 'KIT_CONFIG_PER_MINUTE',
  'KIT_SETTINGS_CACHE_TTL_MS', 'KIT_QUESTION_LOG_FLUSH_MS', 'KIT_QUESTION_LOG_QUEUE_MAX', 'KIT_PURGE_INTERVAL_MINUTES',
  'KIT_FEEDBACK_PER_SESSION_PER_MINUTE', 'KIT_BEACONS_PER_SESSION_PER_MINUTE', 'KIT_BEACONS_PER_IP_PER_MINUTE',
  'KIT_CONSOLE_DIR', 'KIT_PUBLIC_URL', 'KIT_CONSOLE_SESSION_IDLE_SECONDS', 'KIT_CONSOLE_SESSION_MAX_SECONDS',
  'KIT_PASSWORD_RESET_TTL_SECONDS', 'KIT_PASSWORD_RESETS_PER_IP_PER_HOUR', 'KIT_SMTP_URL', 'KIT_MAIL_FROM',
] as const);

/** A configuration the server cannot start with; `problems` has one line per variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const int = (min: number, max: number, fallback: number) =>
  z.preprocess(blankToUndefined, z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`).default(fallback));
const optionalText = z.preprocess(blankToUndefined, z.string().optional());
const url = (protocols: readonly string[], what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), `must be a ${what} URL`)
      .optional(),
  );

const EnvSchema = z.object({
  PORT: int(0, 65535, 8787),
  // Loopback by default: a fresh `npm start` prints the demo owner's password and must not serve it to the network.
  HOST: z.preprocess(blankToUndefined, z.string().default('127.0.0.1')),
  KIT_DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./.kit-data')),
  DATABASE_URL: url(['postgres:', 'postgresql:'], 'postgres://'),
  KIT_DB_POOL_MAX: int(1, 100, 10),
  KIT_JWT_SECRET: z.preprocess(blankToUndefined, z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 48`)').optional()),
  KIT_TRUST_PROXY: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^(true|false|\d{1,2})$/, 'must be true, false or a number of proxy hops')
      .default('false')
      .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v))),
  ),
  KIT_CORS_ORIGINS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default('*')
      .transform((v, ctx) => {
        if (v.trim() === '*') return '*' as const;
        const list = v.split(',').map((s) => s.trim()).filter(Boolean);
        for (const origin of list) {
          if (!URL.canParse(origin) || new URL(origin).origin !== origin) ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin like https://app.example.com` });
        }
        return list;
      }),
  ),
  KIT_LOG_LEVEL: z.preprocess(blankToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' }).default('info')),
  KIT_KEY_CACHE_TTL_MS: int(0, 60_000, 5_000),
  KIT_LAST_USED_FLUSH_MS: int(100, 3_600_000, 30_000),
  KIT_LOGIN_MAX_PER_EMAIL: int(1, 10_000, 10),
  KIT_LOGIN_MAX_PER_IP: int(1, 100_000, 50),
  KIT_LOGIN_WINDOW_SECONDS: int(1, 86_400, 900),
  KIT_SIGNUPS_PER_IP_PER_HOUR: int(1, 100_000, 20),
  KIT_INVITATION_TTL_SECONDS: int(60, 90 * 86_400, 7 * 86_400),
  KIT_BOT_CHALLENGE: z.preprocess(blankToUndefined, z.enum(['altcha', 'turnstile', 'none'], { error: 'must be altcha, turnstile or none' }).default('altcha')),
  KIT_TURNSTILE_SECRET: optionalText,
  KIT_TURNSTILE_SITE_KEY: optionalText,
  KIT_INFERENCE_URL: url(['http:', 'https:'], 'http(s)://'),
  KIT_INFERENCE_MODEL: optionalText,
  KIT_INFERENCE_API_KEY: optionalText,
  STRIPE_SECRET_KEY: z.preprocess(blankToUndefined, z.string().regex(/^(sk|rk)_(test|live)_/, 'must start with sk_test_, sk_live_, rk_test_ or rk_live_').optional()),
  STRIPE_WEBHOOK_SECRET: z.preprocess(blankToUndefined, z.string().regex(/^whsec_/, 'must start with whsec_').optional()),
  KIT_STRIPE_PRICE_PRO: z.preprocess(blankToUndefined, z.string().regex(/^price_/, 'must be a Stripe price id (price_…)').optional()),
  KIT_STRIPE_PRICE_BUSINESS: z.preprocess(blankToUndefined, z.string().regex(/^price_/, 'must be a Stripe price id (price_…)').optional()),
  KIT_STRIPE_API_BASE: url(['http:', 'https:'], 'http(s)://'),
  KIT_TURNSTILE_VERIFY_URL: url(['http:', 'https:'], 'http(s)://'),
  KIT_ALTCHA_MAX_NUMBER: int(100, 10_000_000, 100_000),
  KIT_ALTCHA_TTL_SECONDS: int(30, 3_600, 300),
  KIT_REDACT_SOURCES: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default('false')
      .transform((v, ctx) => {
        const parts = v.toLowerCase().split(',').map((p) => p.trim()).filter(Boolean);
        if (parts.length === 1 && (parts[0] === 'false' || parts[0] === 'off')) return null;
        if (parts.length === 1 && parts[0] === 'true') return { secrets: true, pii: true };
        if (parts.length === 0 || parts.some((p) => p !== 'secrets' && p !== 'pii')) {
          ctx.addIssue({ code: 'custom', message: 'must be false, true, secrets, pii or secrets,pii' });
          return z.NEVER;
        }
        return { secrets: parts.includes('secrets'), pii: parts.includes('pii') };
      }),
  ),
  KIT_PLAN_LIMITS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .default('{}')
      .transform((v, ctx) => {
        let json: unknown;
        try {
          json = JSON.parse(v);
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be JSON like {"free":{"requests_per_minute":30}}' });
          return z.NEVER;
        }
        const parsed = PlanOverrides.safeParse(json);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          ctx.addIssue({ code: 'custom', message: `${issue.path.join('.')}: ${issue.message}` });
          return z.NEVER;
        }
        return resolvePlans(parsed.data);
      }),
  ),
  KIT_SSE_KEEPALIVE_MS: int(50, 15_000, 10_000),
  KIT_SSE_WRITE_STALL_MS: int(100, 600_000, 30_000),
  KIT_SHUTDOWN_GRACE_MS: int(0, 600_000, 25_000),
  KIT_DATA_DIR_LOCK_WAIT_MS: int(0, 600_000, 0),
  KIT_PGLITE_SHARED_BUFFERS: z.preprocess(blankToUndefined, z.string().regex(/^\d{1,6}(kB|MB|GB)$/, 'must be a size like 16MB, 512kB or 1GB').default('16MB')),
  KIT_HEADERS_TIMEOUT_MS: int(1_000, 300_000, 10_000),
  KIT_REQUEST_TIMEOUT_MS: int(1_000, 3_600_000, 30_000),
  KIT_KEEP_ALIVE_TIMEOUT_MS: int(100, 600_000, 5_000),
  KIT_MAX_CONNECTIONS_PER_IP: int(0, 1_000_000, 256),
  KIT_MAX_PENDING_HEADERS: int(0, 1_000_000, 512),
  KIT_CONFIG_PER_MINUTE: int(1, 1_000_000, 120),
  KIT_DEMO: z.preprocess(blankToUndefined, z.enum(['true', 'false'], { error: 'must be true or false' }).default('true').transform((v) => v === 'true')),
  KIT_SDK_DIR: z.preprocess(blankToUndefined, z.string().default('./dist/sdk')),
  KIT_DEMO_DIR: z.preprocess(blankToUndefined, z.string().default('./demo')),
  NODE_ENV: optionalText,
  KIT_SETTINGS_CACHE_TTL_MS: int(0, 60_000, 5_000),
  KIT_QUESTION_LOG_FLUSH_MS: int(10, 60_000, 500),
  KIT_QUESTION_LOG_QUEUE_MAX: int(100, 1_000_000, 10_000),
  KIT_PURGE_INTERVAL_MINUTES: int(1, 1_440, 60),
  KIT_FEEDBACK_PER_SESSION_PER_MINUTE: int(1, 1_000, 10),
  KIT_BEACONS_PER_SESSION_PER_MINUTE: int(1, 1_000, 20),
  KIT_BEACONS_PER_IP_PER_MINUTE: int(1, 10_000, 30),
  KIT_CONSOLE_DIR: z.preprocess(blankToUndefined, z.string().default('./dist/console')),
  KIT_PUBLIC_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol) && new URL(v).pathname === '/' && !new URL(v).search, 'must be an http(s) origin like https://kit.example.com')
      .transform((v) => new URL(v).origin)
      .optional(),
  ),
  KIT_CONSOLE_SESSION_IDLE_SECONDS: int(60, 30 * 86_400, 86_400),
  KIT_CONSOLE_SESSION_MAX_SECONDS: int(300, 90 * 86_400, 7 * 86_400),
  KIT_PASSWORD_RESET_TTL_SECONDS: int(300, 86_400, 3_600),
  KIT_PASSWORD_RESETS_PER_IP_PER_HOUR: int(1, 100_000, 20),
  KIT_SMTP_URL: url(['smtp:', 'smtps:'], 'smtp:// or smtps://'),
  KIT_MAIL_FROM: z.preprocess(blankToUndefined, z.string().max(200, 'must be at most 200 characters').default('Kit <no-reply@localhost>')),
});

/**
 * Reads and checks the environment. Throws ConfigError listing every problem (never echoing a secret's value).
 * `cwd` resolves a relative KIT_DATA_DIR.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): ServerConfig {
  const parsed = EnvSchema.safeParse(env);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  if (e.KIT_BOT_CHALLENGE === 'turnstile' && (!e.KIT_TURNSTILE_SECRET || !e.KIT_TURNSTILE_SITE_KEY)) {
    problems.push('KIT_TURNSTILE_SECRET and KIT_TURNSTILE_SITE_KEY: both are required when KIT_BOT_CHALLENGE=turnstile');
  }
  if (e.KIT_BOT_CHALLENGE === 'none' && e.NODE_ENV === 'production') {
    problems.push('KIT_BOT_CHALLENGE: "none" is for development only and is refused when NODE_ENV=production');
  }
  if (!e.KIT_INFERENCE_URL && (e.KIT_INFERENCE_MODEL || e.KIT_INFERENCE_API_KEY)) {
    problems.push('KIT_INFERENCE_URL: required when KIT_INFERENCE_MODEL or KIT_INFERENCE_API_KEY is set');
  }
  if (e.KIT_INFERENCE_URL && !e.KIT_INFERENCE_MODEL) problems.push('KIT_INFERENCE_MODEL: required when KIT_INFERENCE_URL is set');
  const stripeVars = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'KIT_STRIPE_PRICE_PRO', 'KIT_STRIPE_PRICE_BUSINESS'] as const;
  const stripeSet = stripeVars.filter((v) => e[v] !== undefined);
  if (stripeSet.length > 0 && stripeSet.length < stripeVars.length) {
    problems.push(`${stripeVars.filter((v) => e[v] === undefined).join(', ')}: billing needs all of ${stripeVars.join(', ')} (or none)`);
  }
  if (e.NODE_ENV === 'production' && e.KIT_SMTP_URL && !e.KIT_PUBLIC_URL) {
    problems.push('KIT_PUBLIC_URL: required with KIT_SMTP_URL when NODE_ENV=production (links in emails must not come from a request\'s Host header)');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolMax: e.KIT_DB_POOL_MAX }
      : { kind: 'pglite', dataDir: resolve(cwd, e.KIT_DATA_DIR), settings: { shared_buffers: e.KIT_PGLITE_SHARED_BUFFERS }, lockWaitMs: e.KIT_DATA_DIR_LOCK_WAIT_MS },
    jwtSecret: e.KIT_JWT_SECRET ?? null,
    trustProxyHops: e.KIT_TRUST_PROXY,
    corsOrigins: e.KIT_CORS_ORIGINS,
    logLevel: e.KIT_LOG_LEVEL,
    keyCacheTtlMs: e.KIT_KEY_CACHE_TTL_MS,
    lastUsedFlushMs: e.KIT_LAST_USED_FLUSH_MS,
    loginLimits: { perEmail: e.KIT_LOGIN_MAX_PER_EMAIL, perIp: e.KIT_LOGIN_MAX_PER_IP, windowSeconds: e.KIT_LOGIN_WINDOW_SECONDS },
    signupsPerIpPerHour: e.KIT_SIGNUPS_PER_IP_PER_HOUR,
    invitationTtlSeconds: e.KIT_INVITATION_TTL_SECONDS,
    botChallenge: {
      provider: e.KIT_BOT_CHALLENGE,
      turnstileSecret: e.KIT_TURNSTILE_SECRET ?? null,
      turnstileSiteKey: e.KIT_TURNSTILE_SITE_KEY ?? null,
      turnstileVerifyUrl: e.KIT_TURNSTILE_VERIFY_URL ?? null,
      altchaMaxNumber: e.KIT_ALTCHA_MAX_NUMBER,
      altchaTtlSeconds: e.KIT_ALTCHA_TTL_SECONDS,
    },
    inference: e.KIT_INFERENCE_URL ? { url: e.KIT_INFERENCE_URL, model: e.KIT_INFERENCE_MODEL!, apiKey: e.KIT_INFERENCE_API_KEY ?? null } : null,
    stripe:
      stripeSet.length === stripeVars.length
        ? {
            secretKey: e.STRIPE_SECRET_KEY!,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
            pricePro: e.KIT_STRIPE_PRICE_PRO!,
            priceBusiness: e.KIT_STRIPE_PRICE_BUSINESS!,
            apiBase: e.KIT_STRIPE_API_BASE ?? null,
          }
        : null,
    redactSources: e.KIT_REDACT_SOURCES,
    plans: e.KIT_PLAN_LIMITS,
    sseKeepAliveMs: e.KIT_SSE_KEEPALIVE_MS,
    sseWriteStallMs: e.KIT_SSE_WRITE_STALL_MS,
    shutdownGraceMs: e.KIT_SHUTDOWN_GRACE_MS,
    nodeEnv: e.NODE_ENV ?? null,
    http: {
      headersTimeoutMs: e.KIT_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.KIT_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KIT_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerIp: e.KIT_MAX_CONNECTIONS_PER_IP,
      maxPendingHeaders: e.KIT_MAX_PENDING_HEADERS,
    },
    configRequestsPerMinute: e.KIT_CONFIG_PER_MINUTE,
    insights: {
      settingsCacheTtlMs: e.KIT_SETTINGS_CACHE_TTL_MS,
      logFlushMs: e.KIT_QUESTION_LOG_FLUSH_MS,
      logQueueMax: e.KIT_QUESTION_LOG_QUEUE_MAX,
      purgeIntervalMinutes: e.KIT_PURGE_INTERVAL_MINUTES,
      feedbackPerSessionPerMinute: e.KIT_FEEDBACK_PER_SESSION_PER_MINUTE,
      beaconsPerSessionPerMinute: e.KIT_BEACONS_PER_SESSION_PER_MINUTE,
      beaconsPerIpPerMinute: e.KIT_BEACONS_PER_IP_PER_MINUTE,
    },
    demo: { seed: e.KIT_DEMO, sdkDir: resolve(cwd, e.KIT_SDK_DIR), siteDir: resolve(cwd, e.KIT_DEMO_DIR) },
    dataDir: resolve(cwd, e.KIT_DATA_DIR),
    console: {
      dir: resolve(cwd, e.KIT_CONSOLE_DIR),
      publicUrl: e.KIT_PUBLIC_URL ?? null,
      sessionIdleSeconds: e.KIT_CONSOLE_SESSION_IDLE_SECONDS,
      sessionMaxSeconds: e.KIT_CONSOLE_SESSION_MAX_SECONDS,
      passwordResetTtlSeconds: e.KIT_PASSWORD_RESET_TTL_SECONDS,
      passwordResetsPerIpPerHour: e.KIT_PASSWORD_RESETS_PER_IP_PER_HOUR,
    },
    mail: { smtpUrl: e.KIT_SMTP_URL ?? null, from: e.KIT_MAIL_FROM },
  };
}
