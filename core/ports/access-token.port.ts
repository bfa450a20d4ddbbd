import type { Result } from '../errors/index.js';
import type { Role } from './account-store.port.js';

/** What a dashboard token says: who, in which organisation. The role is informative; servers re-read it. */
export interface AccessClaims {
  readonly userId: string;
  readonly orgId: string;
  readonly role: Role;
}

/** Issues and checks the JWTs of CONTRACT §1. */
export interface AccessTokenPort {
  issue(claims: AccessClaims, now: Date): Promise<{ readonly token: string; readonly expiresAt: Date }>;
  /** Checks signature, algorithm, issuer, audience and expiry. */
  verify(token: string, now: Date): Promise<Result<AccessClaims, 'invalid_token'>>;
}
