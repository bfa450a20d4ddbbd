import type { Fail, Ok } from '../errors/result.js';

/** The bot-challenge providers of CONTRACT §3 (`KIT_BOT_CHALLENGE`). */
export type BotChallengeProvider = 'altcha' | 'turnstile' | 'none';

/** The standard ALTCHA challenge object the public widget solves (the salt carries `expires=` and the origin). */
export interface AltchaChallenge {
  readonly algorithm: 'SHA-1' | 'SHA-256' | 'SHA-512';
  readonly challenge: string;
  readonly maxnumber: number;
  readonly salt: string;
  readonly signature: string;
}

/** The `bot_challenge` member of `GET /config`, as sent to the browser. */
export type BotChallengeConfig =
  | { readonly provider: 'altcha'; readonly challenge: AltchaChallenge }
  | { readonly provider: 'turnstile'; readonly site_key: string }
  | { readonly provider: 'none' };

/** Where the challenge is shown and solved: the request's `Origin` (null when the browser sent none). */
export interface BotChallengeContext {
  readonly origin: string | null;
  /** The key the challenge is fetched with and the session asked for: a challenge opens sessions for its own key only. */
  readonly keyId?: string;
  /** The visitor's address, passed to providers that use it (Turnstile's `remoteip`). */
  readonly remoteIp?: string;
}

/** Why a solution was refused; for logs, metrics and tests (the HTTP answer is the outcome's `code`). */
export type BotChallengeFailure =
  | 'malformed' // not a solution of this provider's shape
  | 'invalid' // wrong, tampered or signed by another key
  | 'expired'
  | 'replayed' // already accepted once
  | 'origin_mismatch' // solved for another origin / hostname
  | 'key_mismatch' // fetched with another API key
  | 'unavailable'; // the provider could not be asked (timeout, network, 5xx)

/** A refused solution: `challenge_failed` (403) for the visitor's fault, `upstream_unavailable` (502) when the provider failed. */
export type BotChallengeRefusal = Fail<'challenge_failed' | 'upstream_unavailable'> & { readonly failure: BotChallengeFailure };

/** The outcome of `verify`: expected refusals are values, never throws. */
export type BotChallengeOutcome = Ok<{ readonly provider: BotChallengeProvider }> | BotChallengeRefusal;

/**
 * Issues the challenge `GET /config` hands to the browser and verifies the solution `POST /session` receives.
 * Each accepted solution is single use across replicas (through a ReplayStorePort).
 */
export interface BotChallengePort {
  readonly provider: BotChallengeProvider;
  /** A fresh challenge for this origin. */
  issue(context: BotChallengeContext): Promise<BotChallengeConfig>;
  /** Verifies `solution` (the body's `solution` field, untrusted) for this origin. */
  verify(solution: unknown, context: BotChallengeContext): Promise<BotChallengeOutcome>;
}

/** Builds a refusal value with the contract code that fits the failure. */
export function refuseChallenge(failure: BotChallengeFailure, reason: string): BotChallengeRefusal {
  return { ok: false, code: failure === 'unavailable' ? 'upstream_unavailable' : 'challenge_failed', reason, failure };
}
