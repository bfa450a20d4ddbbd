import type { Result } from '../errors/index.js';

/** A pending password reset: only the SHA-256 of its emailed token is stored. */
export interface PasswordResetRecord {
  readonly tokenHash: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** Password-reset tokens: each used at most once, even by requests that arrive together. */
export interface PasswordResetStorePort {
  create(reset: PasswordResetRecord): Promise<void>;
  /**
   * In one transaction: claims the token (unused, unexpired at `now`), sets the user's password hash, marks every
   * other pending reset of the user used and deletes the user's browser sessions. `invalid` when the token is unknown,
   * used or expired — of several concurrent calls with one token, exactly one succeeds.
   */
  consume(tokenHash: string, passwordHash: string, now: Date): Promise<Result<{ readonly userId: string; readonly sessionsRevoked: number }, 'invalid'>>;
}
