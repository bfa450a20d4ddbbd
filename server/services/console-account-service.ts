import { inject, injectable } from 'inversify';
import type { Logger } from 'pino';
import type { AccountStorePort, InvitationRecord, MemberRecord, OrganizationRecord, Role, UserRecord } from '../../core/ports/account-store.port.js';
import type { MailerPort, MailMessage } from '../../core/ports/mailer.port.js';
import type { PasswordHasherPort } from '../../core/ports/password-hasher.port.js';
import type { PasswordResetStorePort } from '../../core/ports/password-reset-store.port.js';
import type { RateLimiterPort } from '../../core/ports/rate-limiter.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import type { ServerConfig } from '../config.js';
import { randomBase62, sha256Hex } from '../ids.js';
import { invitationMail, passwordResetMail } from '../mail/templates.js';
import { TOKENS, type Clock } from '../tokens.js';
import type { AccountService, LoginInput, SignupInput } from './account-service.js';
import type { ActiveBrowserSession, BrowserSessionService } from './browser-session-service.js';
import { rateLimited } from './rate-limit-refusal.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/** What the console knows about its signed-in user (GET /auth/session). */
export interface ConsoleSessionState {
  readonly session: ActiveBrowserSession;
  readonly csrfToken: string;
  readonly user: UserRecord;
  readonly organization: OrganizationRecord & { readonly memberCount: number };
  readonly role: Role;
  readonly organizations: readonly { readonly id: string; readonly name: string; readonly role: Role }[];
}

/** Each email address gets at most this many reset emails an hour, whoever asks. */
const RESETS_PER_EMAIL_PER_HOUR = 5;

/**
 * The console's account flows over the same accounts as the token API (docs/console.md): cookie sign-in and
 * sign-up, the session's state and organisation switch, sign-out, password reset by an emailed link, invitation
 * emails, leaving an organisation.
 */
@injectable()
export class ConsoleAccountService {
  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.AccountService) private readonly accountService: AccountService,
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStorePort,
    @inject(TOKENS.BrowserSessions) private readonly sessions: BrowserSessionService,
    @inject(TOKENS.PasswordResetStore) private readonly resets: PasswordResetStorePort,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasherPort,
    @inject(TOKENS.RateLimiter) private readonly limiter: RateLimiterPort,
    @inject(TOKENS.Mailer) private readonly mailer: MailerPort,
  ) {}

  /** Signs in with the login rules of POST /auth/login (limits, invitations) and starts a browser session. */
  async signIn(input: LoginInput, ip: string): Promise<ServiceResult<{ token: string; state: ConsoleSessionState }>> {
    const login = await this.accountService.login(input, ip);
    if (!login.ok) return login;
    return this.#start(login.value.user.id, login.value.member.orgId);
  }

  /** Signs up with the rules of POST /auth/signup and starts a browser session. */
  async signUp(input: SignupInput, ip: string): Promise<ServiceResult<{ token: string; state: ConsoleSessionState }>> {
    const signup = await this.accountService.signup(input, ip);
    if (!signup.ok) return signup;
    return this.#start(signup.value.user.id, signup.value.member.orgId);
  }

  async #start(userId: string, orgId: string): Promise<ServiceResult<{ token: string; state: ConsoleSessionState }>> {
    const { token, session } = await this.sessions.start(userId, orgId);
    const state = await this.state(session);
    return state ? ok({ token, state }) : refuse('unauthenticated', 'The account changed while signing in; sign in again.');
  }

  /** The state of a live session; null when its user or membership is gone (the session is then revoked). */
  async state(session: ActiveBrowserSession): Promise<ConsoleSessionState | null> {
    const [user, memberships] = await Promise.all([this.accounts.findUserById(session.userId), this.accounts.listMembershipsOfUser(session.userId)]);
    if (!user || memberships.length === 0) {
      await this.sessions.revoke(session.tokenHash);
      return null;
    }
    let current = memberships.find((m) => m.orgId === session.orgId);
    let active = session;
    if (!current) {
      // Removed from the organisation the console was in: carry on in the first one left.
      current = memberships[0]!;
      await this.sessions.switchOrganization(session.tokenHash, current.orgId);
      active = { ...session, orgId: current.orgId };
    }
    const organizations = await this.#organizations(memberships);
    const organization = await this.accounts.findOrganization(current.orgId);
    if (!organization) return null;
    return { session: active, csrfToken: this.sessions.csrfToken(session.tokenHash), user, organization, role: current.role, organizations };
  }

  async #organizations(memberships: readonly MemberRecord[]): Promise<ConsoleSessionState['organizations']> {
    const orgs = await Promise.all(memberships.map((m) => this.accounts.findOrganization(m.orgId)));
    return memberships.flatMap((m, i) => (orgs[i] ? [{ id: m.orgId, name: orgs[i]!.name, role: m.role }] : []));
  }

  /** Moves the session to another organisation of the user. */
  async switchOrganization(session: ActiveBrowserSession, orgId: string): Promise<ServiceResult<ConsoleSessionState>> {
    const member = await this.accounts.findMember(orgId, session.userId);
    if (!member) return refuse('not_found', 'No such organization for this account.');
    await this.sessions.switchOrganization(session.tokenHash, orgId);
    const state = await this.state({ ...session, orgId });
    return state ? ok(state) : refuse('unauthenticated', 'Your session has ended; sign in again.');
  }

  signOut(session: ActiveBrowserSession): Promise<boolean> {
    return this.sessions.revoke(session.tokenHash);
  }

  /**
   * Emails a reset link when the address has an account. The answer never says whether it has one, and the work is
   * done after the answer so its timing does not tell either. `linkBase` null (no KIT_PUBLIC_URL, a non-loopback
   * Host) sends nothing and logs why.
   */
  async requestPasswordReset(email: string, ip: string, linkBase: string | null): Promise<ServiceResult<void>> {
    const now = this.clock();
    const byIp = await this.limiter.hit(`pwreset:ip:${ip}`, this.config.console.passwordResetsPerIpPerHour, 3600, now);
    if (!byIp.allowed) return rateLimited(byIp, now, 'Too many password-reset requests from this address; retry later.');
    void this.#sendReset(email, linkBase, now).catch((err: Error) => this.logger.error({ err: { type: err.name, message: err.message }, mail: 'password_reset' }, 'password-reset email failed'));
    return ok(undefined);
  }

  async #sendReset(email: string, linkBase: string | null, now: Date): Promise<void> {
    const user = await this.accounts.findUserByEmail(email);
    if (!user) return;
    const byEmail = await this.limiter.hit(`pwreset:email:${sha256Hex(email)}`, RESETS_PER_EMAIL_PER_HOUR, 3600, now);
    if (!byEmail.allowed) {
      this.logger.warn({ mail: 'password_reset' }, 'password-reset email skipped: too many for this address this hour');
      return;
    }
    if (linkBase === null) {
      this.logger.warn({ mail: 'password_reset' }, 'password-reset email not sent: set KIT_PUBLIC_URL (links are built from it, or from a loopback Host)');
      return;
    }
    const token = `kit_rst_${randomBase62(40)}`;
    const ttl = this.config.console.passwordResetTtlSeconds;
    await this.resets.create({ tokenHash: sha256Hex(token), userId: user.id, createdAt: now, expiresAt: new Date(now.getTime() + ttl * 1000) });
    await this.#send(passwordResetMail(user.email, `${linkBase}/console/reset-password#token=${token}`, Math.round(ttl / 60)));
  }

  /** Sets a new password with an emailed token (once), ending the user's browser sessions. */
  async resetPassword(token: string, password: string, ip: string): Promise<ServiceResult<void>> {
    const now = this.clock();
    const byIp = await this.limiter.hit(`pwreset-confirm:ip:${ip}`, this.config.console.passwordResetsPerIpPerHour * 5, 3600, now);
    if (!byIp.allowed) return rateLimited(byIp, now, 'Too many password-reset attempts from this address; retry later.');
    const hash = await this.hasher.hash(password);
    const result = await this.resets.consume(sha256Hex(token), hash, now);
    if (!result.ok) return refuse('invalid_request', 'token: the reset link is unknown, already used or expired; ask for a new one.');
    this.logger.info({ user_id: result.value.userId, sessions_revoked: result.value.sessionsRevoked }, 'password reset');
    return ok(undefined);
  }

  /** Emails an invitation (after POST /org/members made it); false when no link can be built. */
  sendInvitation(auth: MemberAuth, invitation: { email: string; role: Role; token: string; expiresAt: Date }, linkBase: string | null): boolean {
    if (linkBase === null) {
      this.logger.warn({ mail: 'invitation' }, 'invitation email not sent: set KIT_PUBLIC_URL (links are built from it, or from a loopback Host)');
      return false;
    }
    const link = `${linkBase}/console/accept-invite#token=${invitation.token}`;
    void (async () => {
      const [inviter, organization] = await Promise.all([this.accounts.findMember(auth.orgId, auth.userId), this.accounts.findOrganization(auth.orgId)]);
      const mail = invitationMail(invitation.email, link, {
        inviter: inviter?.name ?? inviter?.email ?? 'A Kit user',
        organization: organization?.name ?? 'an organization',
        role: invitation.role,
        expiresAt: invitation.expiresAt,
      });
      await this.#send(mail);
    })().catch((err: Error) => this.logger.error({ err: { type: err.name, message: err.message }, mail: 'invitation' }, 'invitation email failed'));
    return true;
  }

  async #send(message: MailMessage): Promise<void> {
    await this.mailer.send(message);
    this.logger.info({ mail: message.kind }, 'email sent');
  }

  listInvitations(auth: MemberAuth): Promise<readonly InvitationRecord[]> {
    return this.accounts.listPendingInvitations(auth.orgId, this.clock());
  }

  async revokeInvitation(auth: MemberAuth, invitationId: string): Promise<ServiceResult<void>> {
    return (await this.accounts.revokeInvitation(auth.orgId, invitationId)) ? ok(undefined) : refuse('not_found', 'No such pending invitation.');
  }

  /** Leaves the organisation (any role); the last owner cannot (`conflict`). */
  async leave(auth: MemberAuth): Promise<ServiceResult<void>> {
    const result = await this.accounts.removeMember(auth.orgId, auth.userId, true);
    if (result.ok) return ok(undefined);
    if (result.code === 'last_owner') return refuse('conflict', 'You are the last owner: make another member an owner before leaving.');
    return refuse('not_found', 'You are not a member of this organization.');
  }
}
