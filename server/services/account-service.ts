import { inject, injectable } from 'inversify';
import type { AccessTokenPort } from '../../core/ports/access-token.port.js';
import type { AccountStorePort, MemberRecord, OrganizationRecord, UserRecord } from '../../core/ports/account-store.port.js';
import type { PasswordHasherPort } from '../../core/ports/password-hasher.port.js';
import type { RateLimiterPort } from '../../core/ports/rate-limiter.port.js';
import type { ServerConfig } from '../config.js';
import { newId, sha256Hex } from '../ids.js';
import { TOKENS, type Clock } from '../tokens.js';
import { rateLimited } from './rate-limit-refusal.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/** What signup and login return (CONTRACT §3). */
export interface Session {
  readonly token: string;
  readonly expiresAt: Date;
  readonly user: Pick<UserRecord, 'id' | 'email' | 'name' | 'createdAt'>;
  readonly organization: OrganizationRecord & { readonly memberCount: number };
  readonly member: MemberRecord;
}

export interface SignupInput {
  readonly email: string;
  readonly password: string;
  readonly name?: string | undefined;
  readonly organizationName?: string | undefined;
  readonly inviteToken?: string | undefined;
}

export interface LoginInput {
  readonly email: string;
  readonly password: string;
  readonly organizationId?: string | undefined;
  readonly inviteToken?: string | undefined;
}

const BAD_CREDENTIALS = 'Email or password is incorrect.';
const BAD_INVITATION = 'invite_token is unknown, already used or expired.';
const DEFAULT_ORGANIZATION_NAME = 'My organization';

/** Developer accounts: signup (new organisation or invitation), login with rate limits, token issue. */
@injectable()
export class AccountService {
  /** A real hash of a random password, verified for unknown emails so both failures cost the same. */
  #dummyHash: Promise<string> | null = null;

  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStorePort,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasherPort,
    @inject(TOKENS.AccessTokens) private readonly tokens: AccessTokenPort,
    @inject(TOKENS.RateLimiter) private readonly limiter: RateLimiterPort,
  ) {}

  async signup(input: SignupInput, ip: string): Promise<ServiceResult<Session>> {
    const now = this.clock();
    const limit = await this.limiter.hit(`signup:ip:${ip}`, this.config.signupsPerIpPerHour, 3600, now);
    if (!limit.allowed) return rateLimited(limit, now, 'Too many signups from this address; retry later.');

    const invitation = input.inviteToken === undefined ? null : await this.accounts.findInvitationByTokenHash(sha256Hex(input.inviteToken), now);
    if (input.inviteToken !== undefined) {
      if (!invitation) return refuse('invalid_request', BAD_INVITATION);
      if (invitation.email !== input.email) return refuse('invalid_request', 'invite_token was issued for another email address.');
    }

    const user: UserRecord = {
      id: newId('usr'),
      email: input.email,
      name: input.name ?? null,
      passwordHash: await this.hasher.hash(input.password),
      createdAt: now,
    };
    const created = invitation
      ? await this.accounts.createUserFromInvitation(user, invitation.id, now)
      : await this.accounts.createAccount(user, { id: newId('org'), name: input.organizationName ?? DEFAULT_ORGANIZATION_NAME, tier: 'free', createdAt: now });
    if (!created.ok) {
      if (created.code === 'email_taken') return refuse('conflict', 'An account with this email already exists; log in instead (with invite_token to accept an invitation).');
      return refuse('invalid_request', BAD_INVITATION);
    }
    return this.#session(user, created.value);
  }

  async login(input: LoginInput, ip: string): Promise<ServiceResult<Session>> {
    const now = this.clock();
    const { perEmail, perIp, windowSeconds } = this.config.loginLimits;
    const byIp = await this.limiter.hit(`login:ip:${ip}`, perIp, windowSeconds, now);
    if (!byIp.allowed) return rateLimited(byIp, now, 'Too many login attempts from this address; retry later.');
    // The attempt takes its place in the email's window BEFORE the password is checked (one atomic upsert), so a
    // burst of parallel guesses gets exactly `perEmail` checks; reading the count first and counting failures after
    // the slow Argon2 check let every request of a burst through (issue #11.4). A success gives its place back.
    const emailBucket = `login:email:${sha256Hex(input.email)}`;
    const byEmail = await this.limiter.hit(emailBucket, perEmail, windowSeconds, now);
    if (!byEmail.allowed) return rateLimited(byEmail, now, 'Too many failed logins for this account; retry later.');

    const user = await this.accounts.findUserByEmail(input.email);
    const valid = user ? await this.hasher.verify(user.passwordHash, input.password) : await this.hasher.verify(await this.#dummy(), input.password).then(() => false);
    if (!user || !valid) return refuse('unauthenticated', BAD_CREDENTIALS);
    await this.limiter.undo(emailBucket, windowSeconds, now);

    if (input.inviteToken !== undefined) {
      const invitation = await this.accounts.findInvitationByTokenHash(sha256Hex(input.inviteToken), now);
      if (!invitation) return refuse('invalid_request', BAD_INVITATION);
      if (invitation.email !== user.email) return refuse('invalid_request', 'invite_token was issued for another email address.');
      const joined = await this.accounts.acceptInvitation(user.id, invitation.id, now);
      if (!joined.ok && joined.code === 'invitation_invalid') return refuse('invalid_request', BAD_INVITATION);
      if (joined.ok) return this.#session(user, joined.value);
      // already a member: log in to that organisation
      const member = await this.accounts.findMember(invitation.orgId, user.id);
      if (member) return this.#session(user, member);
    }

    const memberships = await this.accounts.listMembershipsOfUser(user.id);
    if (memberships.length === 0) return refuse('forbidden', 'This account is not a member of any organization; ask for an invitation.');
    const member = input.organizationId === undefined ? memberships[0]! : memberships.find((m) => m.orgId === input.organizationId);
    if (!member) return refuse('not_found', 'No such organization for this account.');
    return this.#session(user, member);
  }

  async #session(user: UserRecord, member: MemberRecord): Promise<ServiceResult<Session>> {
    const organization = await this.accounts.findOrganization(member.orgId);
    if (!organization) return refuse('not_found', 'No such organization.');
    const { token, expiresAt } = await this.tokens.issue({ userId: user.id, orgId: member.orgId, role: member.role }, this.clock());
    return ok({ token, expiresAt, user: { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt }, organization, member });
  }

  #dummy(): Promise<string> {
    this.#dummyHash ??= this.hasher.hash(`dummy-${newId('usr')}`);
    return this.#dummyHash;
  }
}
