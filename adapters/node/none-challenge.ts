import { KitError } from '../../core/errors/index.js';
import type { BotChallengePort } from '../../core/ports/bot-challenge.port.js';

/** Options of the no-op challenge. */
export interface NoneChallengeOptions {
  /** The environment to check. Default `process.env.NODE_ENV`. */
  readonly nodeEnv?: string | undefined;
}

/**
 * Accepts every solution: for local development and tests only. Refused at start-up when NODE_ENV=production, so a
 * forgotten `KIT_BOT_CHALLENGE=none` cannot open a production server to bots.
 */
export function createNoneChallenge(options: NoneChallengeOptions = {}): BotChallengePort {
  const nodeEnv = 'nodeEnv' in options ? options.nodeEnv : process.env.NODE_ENV;
  if (nodeEnv === 'production') {
    throw new KitError('internal_error', 'The bot challenge "none" is for development only and is refused when NODE_ENV=production.');
  }
  return {
    provider: 'none',
    async issue() {
      return { provider: 'none' as const };
    },
    async verify() {
      return { ok: true, value: { provider: 'none' as const } };
    },
  };
}
