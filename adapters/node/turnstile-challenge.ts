import { createHash } from 'node:crypto';
import { refuseChallenge, type BotChallengeContext, type BotChallengeOutcome, type BotChallengePort } from '../../core/ports/bot-challenge.port.js';
import type { ReplayStorePort } from '../../core/ports/replay-store.port.js';

/** Cloudflare's server-side validation endpoint. */
export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** Options of the Cloudflare Turnstile verifier. */
export interface TurnstileChallengeOptions {
  /** The widget's public site key, handed to browsers in /config. */
  readonly siteKey: string;
  /** The operator's secret key (`KIT_TURNSTILE_SECRET`); sent only to `verifyUrl`. */
  readonly secretKey: string;
  readonly replayStore: ReplayStorePort;
  /** Default Cloudflare's siteverify; set for a self-hosted or test double. */
  readonly verifyUrl?: string;
  /** Budget for one siteverify call. Default 5 000 ms; after it the outcome is `unavailable` (502). */
  readonly timeoutMs?: number;
  /**
   * Require the hostname Cloudflare reports to equal the request Origin's hostname. Default true.
   * Cloudflare's dummy test keys report a fixed hostname, so turn it off only with those.
   */
  readonly checkHostname?: boolean;
  /** When set, the widget's `action` must equal it. */
  readonly expectedAction?: string;
  readonly fetch?: typeof fetch;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** Turnstile tokens are valid for 300 s after the widget issued them (Cloudflare's server-side validation docs). */
const TOKEN_LIFETIME_MS = 300_000;
/** Cloudflare's documented maximum token length. */
const MAX_TOKEN_CHARS = 2048;

interface SiteverifyResponse {
  success?: unknown;
  hostname?: unknown;
  challenge_ts?: unknown;
  action?: unknown;
  'error-codes'?: unknown;
}

/**
 * Cloudflare Turnstile: the browser solves the widget, we validate its token server-side at siteverify with the
 * operator's secret, check the hostname, and accept each token once (Cloudflare also refuses reuse; the replay store
 * keeps that true even against a verifier that does not).
 */
export function createTurnstileChallenge(options: TurnstileChallengeOptions): BotChallengePort {
  if (!options.siteKey || !options.secretKey) throw new TypeError('createTurnstileChallenge: siteKey and secretKey are required');
  const verifyUrl = options.verifyUrl ?? TURNSTILE_SITEVERIFY_URL;
  const timeoutMs = options.timeoutMs ?? 5000;
  const checkHostname = options.checkHostname ?? true;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;

  return {
    provider: 'turnstile',

    async issue() {
      return { provider: 'turnstile' as const, site_key: options.siteKey };
    },

    async verify(solution: unknown, context: BotChallengeContext): Promise<BotChallengeOutcome> {
      if (typeof solution !== 'string' || solution.length === 0 || solution.length > MAX_TOKEN_CHARS) {
        return refuseChallenge('malformed', 'The solution is not a Turnstile token.');
      }
      const expectedHost = hostnameOf(context.origin);
      if (checkHostname && expectedHost === null) return refuseChallenge('origin_mismatch', 'A Turnstile token needs the request Origin to check its hostname.');

      const form = new URLSearchParams({ secret: options.secretKey, response: solution });
      if (context.remoteIp) form.set('remoteip', context.remoteIp);
      let body: SiteverifyResponse;
      try {
        const res = await doFetch(verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) return refuseChallenge('unavailable', `Turnstile siteverify answered HTTP ${res.status}.`);
        body = (await res.json()) as SiteverifyResponse;
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        return refuseChallenge('unavailable', timedOut ? `Turnstile siteverify did not answer within ${timeoutMs} ms.` : 'Turnstile siteverify could not be reached.');
      }
      if (typeof body !== 'object' || body === null) return refuseChallenge('unavailable', 'Turnstile siteverify answered something unexpected.');

      if (body.success !== true) {
        const codes = Array.isArray(body['error-codes']) ? body['error-codes'].filter((c): c is string => typeof c === 'string') : [];
        return refusalFor(codes);
      }
      if (checkHostname && (typeof body.hostname !== 'string' || body.hostname.toLowerCase() !== expectedHost)) {
        return refuseChallenge('origin_mismatch', 'The Turnstile token was solved on another hostname.');
      }
      if (options.expectedAction !== undefined && body.action !== options.expectedAction) {
        return refuseChallenge('invalid', 'The Turnstile token was issued for another action.');
      }

      const issuedAt = typeof body.challenge_ts === 'string' ? Date.parse(body.challenge_ts) : NaN;
      const expiresAt = new Date((Number.isFinite(issuedAt) ? issuedAt : now()) + TOKEN_LIFETIME_MS);
      // Tokens are bearer credentials: remember only their hash.
      const id = `turnstile:${createHash('sha256').update(solution).digest('base64url')}`;
      if (!(await options.replayStore.claimOnce(id, expiresAt))) return refuseChallenge('replayed', 'The Turnstile token was already used.');
      return { ok: true, value: { provider: 'turnstile' } };
    },
  };
}

// Error codes from Cloudflare's "Server-side validation" reference.
function refusalFor(codes: readonly string[]): BotChallengeOutcome {
  if (codes.includes('timeout-or-duplicate')) return refuseChallenge('replayed', 'The Turnstile token expired or was already used.');
  if (codes.some((c) => c === 'missing-input-secret' || c === 'invalid-input-secret')) {
    return refuseChallenge('unavailable', "Turnstile refused this server's secret key; check KIT_TURNSTILE_SECRET.");
  }
  if (codes.some((c) => c === 'internal-error' || c === 'bad-request')) return refuseChallenge('unavailable', 'Turnstile siteverify failed.');
  return refuseChallenge('invalid', 'The Turnstile token is invalid.');
}

function hostnameOf(origin: string | null): string | null {
  if (origin === null) return null;
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return null;
  }
}
