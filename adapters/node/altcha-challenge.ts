import { timingSafeEqual } from 'node:crypto';
import { createChallenge, extractParams } from 'altcha-lib/v1';
import { refuseChallenge, type AltchaChallenge, type BotChallengeContext, type BotChallengeOutcome, type BotChallengePort } from '../../core/ports/bot-challenge.port.js';
import type { ReplayStorePort } from '../../core/ports/replay-store.port.js';

/** Options of the ALTCHA (self-hosted proof of work) verifier. */
export interface AltchaChallengeOptions {
  /** HMAC key that signs challenges; every replica must share it. Keep it secret. */
  readonly hmacKey: string;
  /** Lifetime of an issued challenge. Default 300 s; the SDK fetches a new one from /config after that. */
  readonly ttlSeconds?: number;
  /**
   * Upper bound of the secret number: the work is about maxNumber/2 hashes on average.
   * Default 100 000 (≈ 50 000 SHA-256 runs: well under a second in a browser's WebCrypto).
   */
  readonly maxNumber?: number;
  /** Where accepted solutions are remembered, so each is accepted once across replicas. */
  readonly replayStore: ReplayStorePort;
  /** Hash algorithm. Default 'SHA-256' (what the public widget expects). */
  readonly algorithm?: AltchaChallenge['algorithm'];
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** A base64 JSON payload over this size is not an ALTCHA solution (a real one is ~300 bytes plus the origin). */
const MAX_SOLUTION_CHARS = 4096;

/**
 * ALTCHA v1 challenges (`{ algorithm, challenge, maxnumber, salt, signature }`, the format the public widget solves),
 * with the expiry, the API key id and the origin embedded in the signed salt. Solutions are the widget's base64 JSON payload.
 */
export function createAltchaChallenge(options: AltchaChallengeOptions): BotChallengePort {
  if (!options.hmacKey) throw new TypeError('createAltchaChallenge: hmacKey is required');
  const ttlSeconds = options.ttlSeconds ?? 300;
  const maxNumber = options.maxNumber ?? 100_000;
  const algorithm = options.algorithm ?? 'SHA-256';
  const now = options.now ?? Date.now;

  return {
    provider: 'altcha',

    async issue(context: BotChallengeContext) {
      const challenge = await createChallenge({
        algorithm,
        hmacKey: options.hmacKey,
        maxNumber,
        expires: new Date(now() + ttlSeconds * 1000),
        params: { ...(context.keyId === undefined ? {} : { key: context.keyId }), ...(context.origin === null ? {} : { origin: context.origin }) },
      });
      return {
        provider: 'altcha' as const,
        challenge: {
          algorithm: challenge.algorithm,
          challenge: challenge.challenge,
          maxnumber: challenge.maxnumber ?? maxNumber,
          salt: challenge.salt,
          signature: challenge.signature,
        },
      };
    },

    async verify(solution: unknown, context: BotChallengeContext): Promise<BotChallengeOutcome> {
      const payload = decodePayload(solution);
      if (payload === null) return refuseChallenge('malformed', 'The solution is not an ALTCHA payload.');
      if (payload.algorithm !== algorithm) return refuseChallenge('invalid', 'The solution uses another algorithm.');

      // Recompute challenge and signature from salt + number with our key (altcha-lib's own construction),
      // compared in constant time: the signature is what proves we issued this salt.
      const expected = await createChallenge({ algorithm, hmacKey: options.hmacKey, number: payload.number, salt: payload.salt });
      if (!safeEqual(expected.challenge, payload.challenge) || !safeEqual(expected.signature, payload.signature)) {
        return refuseChallenge('invalid', 'The solution is wrong or was not issued by this server.');
      }

      const params = extractParams({ ...payload, algorithm });
      const expires = Number(params.expires);
      // Every challenge we issue carries an expiry; one without is not ours to accept forever.
      if (!Number.isInteger(expires) || expires * 1000 <= now()) return refuseChallenge('expired', 'The challenge has expired.');
      // A challenge issued for an origin must be solved there. One issued without (browsers send no Origin on
      // same-origin GETs, nor on an extension's GET to a host it may reach) is accepted from any origin: anyone can get
      // such a challenge with curl, so binding it would add no protection; the session is bound to this POST's Origin.
      if (params.origin !== undefined && params.origin !== context.origin) return refuseChallenge('origin_mismatch', 'The challenge was issued for another origin.');
      // A challenge is bound to the key it was fetched with (issue #11.5): work done for one organisation's key
      // must not open sessions on another's. Checked before the claim, so a refused attempt does not burn it.
      if (context.keyId !== undefined && params.key !== context.keyId) return refuseChallenge('key_mismatch', 'The challenge was issued for another key; get a fresh one from GET /v1/config with this key.');

      const first = await options.replayStore.claimOnce(`altcha:${payload.challenge}`, new Date(expires * 1000));
      if (!first) return refuseChallenge('replayed', 'The solution was already used.');
      return { ok: true, value: { provider: 'altcha' } };
    },
  };
}

interface AltchaPayload {
  readonly algorithm: string;
  readonly challenge: string;
  readonly number: number;
  readonly salt: string;
  readonly signature: string;
}

function decodePayload(solution: unknown): AltchaPayload | null {
  if (typeof solution !== 'string' || solution.length === 0 || solution.length > MAX_SOLUTION_CHARS) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(solution)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(solution, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Record<string, unknown>;
  const hex = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{1,128}$/.test(v);
  if (typeof p.algorithm !== 'string' || !hex(p.challenge) || !hex(p.signature) || typeof p.salt !== 'string') return null;
  if (typeof p.number !== 'number' || !Number.isSafeInteger(p.number) || p.number < 0) return null;
  return { algorithm: p.algorithm, challenge: p.challenge, number: p.number, salt: p.salt, signature: p.signature };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
