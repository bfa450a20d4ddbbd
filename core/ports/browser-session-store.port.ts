/** A signed-in browser (the console): only the SHA-256 of its cookie value is stored. */
export interface BrowserSessionRecord {
  readonly tokenHash: string;
  readonly userId: string;
  /** The organisation the console acts in (switched with PATCH /auth/session). */
  readonly orgId: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  /** Absolute end of the session, whatever its activity. */
  readonly expiresAt: Date;
}

/** Persistence of browser sessions (cookie sign-in), revocable one by one or per user. */
export interface BrowserSessionStorePort {
  create(session: BrowserSessionRecord): Promise<void>;
  find(tokenHash: string): Promise<BrowserSessionRecord | null>;
  /** Records activity (called at most once a minute per session). */
  touch(tokenHash: string, at: Date): Promise<void>;
  switchOrganization(tokenHash: string, orgId: string): Promise<void>;
  /** Deletes one session; false when it did not exist. */
  revoke(tokenHash: string): Promise<boolean>;
  /** Deletes every session of a user (after a password reset); returns how many. */
  revokeAllOfUser(userId: string): Promise<number>;
  /** Deletes sessions that ended before `now` (absolute or idle end). */
  purgeExpired(now: Date, idleSince: Date): Promise<number>;
}
