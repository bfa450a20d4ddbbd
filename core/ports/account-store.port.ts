import type { Result } from '../errors/index.js';

/** A member's role in one organisation (CONTRACT §2). */
export type Role = 'owner' | 'admin' | 'developer' | 'viewer';
/** A plan tier (CONTRACT §6). */
export type Tier = 'free' | 'pro' | 'business';

export const ROLES: readonly Role[] = Object.freeze(['owner', 'admin', 'developer', 'viewer']);
export const TIERS: readonly Tier[] = Object.freeze(['free', 'pro', 'business']);

/** A developer account; `email` is stored lower-cased. */
export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  readonly passwordHash: string;
  readonly createdAt: Date;
}

export interface OrganizationRecord {
  readonly id: string;
  readonly name: string;
  readonly tier: Tier;
  readonly createdAt: Date;
}

export interface MemberRecord {
  readonly orgId: string;
  readonly userId: string;
  readonly email: string;
  readonly name: string | null;
  readonly role: Role;
  readonly joinedAt: Date;
}

/** A pending invitation; only the SHA-256 of its token is stored. */
export interface InvitationRecord {
  readonly id: string;
  readonly orgId: string;
  readonly email: string;
  readonly role: Role;
  readonly tokenHash: string;
  readonly invitedBy: string;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

export interface Page<T> {
  readonly data: readonly T[];
  readonly hasMore: boolean;
}

export interface PageRequest {
  readonly limit: number;
  /** Id of the last item of the previous page. */
  readonly startingAfter?: string | undefined;
}

/** What a membership change may run into; checked atomically by the store. */
export type MembershipProblem = 'not_found' | 'owner_protected' | 'last_owner';

/**
 * Persistence of developer accounts, organisations, memberships and invitations.
 * Every multi-row change is atomic; "last owner" is checked inside the same transaction as the change.
 */
export interface AccountStorePort {
  /** Creates user, organisation and the owner membership; `email_taken` when the email is registered. */
  createAccount(user: UserRecord, organization: OrganizationRecord): Promise<Result<MemberRecord, 'email_taken'>>;
  /** Creates the user and accepts the invitation in one transaction. */
  createUserFromInvitation(user: UserRecord, invitationId: string, now: Date): Promise<Result<MemberRecord, 'email_taken' | 'invitation_invalid'>>;
  /** Adds an existing user to the invitation's organisation. */
  acceptInvitation(userId: string, invitationId: string, now: Date): Promise<Result<MemberRecord, 'invitation_invalid' | 'already_member'>>;
  findUserByEmail(email: string): Promise<UserRecord | null>;
  /** The user's memberships, oldest first. */
  listMembershipsOfUser(userId: string): Promise<readonly MemberRecord[]>;
  findMember(orgId: string, userId: string): Promise<MemberRecord | null>;
  findOrganization(orgId: string): Promise<(OrganizationRecord & { readonly memberCount: number }) | null>;
  renameOrganization(orgId: string, name: string): Promise<void>;
  /** Members in join order; `bad_cursor` when `startingAfter` is not a member of this organisation. */
  listMembers(orgId: string, page: PageRequest): Promise<Result<Page<MemberRecord>, 'bad_cursor'>>;
  /** Changes a role; `owner_protected` when the target is an owner and `mayTouchOwners` is false. */
  changeRole(orgId: string, userId: string, role: Role, mayTouchOwners: boolean): Promise<Result<MemberRecord, MembershipProblem>>;
  removeMember(orgId: string, userId: string, mayTouchOwners: boolean): Promise<Result<void, MembershipProblem>>;
  /** Stores an invitation, replacing any pending one for the same email; `already_member` when that email is a member. */
  createInvitation(invitation: InvitationRecord): Promise<Result<void, 'already_member'>>;
  /** A pending (not accepted, not expired at `now`) invitation by token hash. */
  findInvitationByTokenHash(tokenHash: string, now: Date): Promise<InvitationRecord | null>;
  findUserById(userId: string): Promise<UserRecord | null>;
  /** Pending invitations of an organisation (not accepted, not expired at `now`), newest first. */
  listPendingInvitations(orgId: string, now: Date): Promise<readonly InvitationRecord[]>;
  /** Deletes a pending invitation of the organisation; false when there is none with that id. */
  revokeInvitation(orgId: string, invitationId: string): Promise<boolean>;
}
