import { inject, injectable } from 'inversify';
import type { AccountStorePort, MemberRecord, OrganizationRecord, Page, PageRequest, Role } from '../../core/ports/account-store.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import type { ServerConfig } from '../config.js';
import { newId, newInvitationToken, sha256Hex } from '../ids.js';
import { TOKENS, type Clock } from '../tokens.js';
import { ok, refuse, type ServiceFailure, type ServiceResult } from './service-result.js';

/** An invitation as returned once to the inviter, token included. */
export interface IssuedInvitation {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  readonly token: string;
  readonly expiresAt: Date;
}

const NOT_A_MEMBER = 'No such member in this organization.';

function membershipRefusal(problem: 'not_found' | 'owner_protected' | 'last_owner'): ServiceFailure {
  if (problem === 'not_found') return refuse('not_found', NOT_A_MEMBER);
  if (problem === 'owner_protected') return refuse('forbidden', 'Only an owner can change or remove an owner.');
  return refuse('conflict', 'An organization must keep at least one owner.');
}

/**
 * The organisation and its members (CONTRACT §2): admins manage members but never owners, only owners
 * grant `owner`, and the last owner can be neither demoted nor removed. Roles come from the database
 * (the caller's MemberAuth was read this request).
 */
@injectable()
export class OrgService {
  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStorePort,
  ) {}

  async get(auth: MemberAuth): Promise<ServiceResult<OrganizationRecord & { readonly memberCount: number }>> {
    const org = await this.accounts.findOrganization(auth.orgId);
    return org ? ok(org) : refuse('not_found', 'No such organization.');
  }

  async rename(auth: MemberAuth, name: string): Promise<ServiceResult<OrganizationRecord & { readonly memberCount: number }>> {
    await this.accounts.renameOrganization(auth.orgId, name);
    return this.get(auth);
  }

  async listMembers(auth: MemberAuth, page: PageRequest): Promise<ServiceResult<Page<MemberRecord>>> {
    const result = await this.accounts.listMembers(auth.orgId, page);
    return result.ok ? result : refuse('invalid_request', 'starting_after: not a member of this organization');
  }

  async invite(auth: MemberAuth, email: string, role: Role): Promise<ServiceResult<IssuedInvitation>> {
    if (role === 'owner' && auth.role !== 'owner') return refuse('forbidden', 'Only an owner can invite an owner.');
    const now = this.clock();
    const token = newInvitationToken();
    const invitation = {
      id: newId('inv'),
      orgId: auth.orgId,
      email,
      role,
      tokenHash: sha256Hex(token),
      invitedBy: auth.userId,
      expiresAt: new Date(now.getTime() + this.config.invitationTtlSeconds * 1000),
      createdAt: now,
    };
    const stored = await this.accounts.createInvitation(invitation);
    if (!stored.ok) return refuse('conflict', 'This email already belongs to a member of the organization.');
    return ok({ id: invitation.id, email, role, token, expiresAt: invitation.expiresAt });
  }

  async changeRole(auth: MemberAuth, userId: string, role: Role): Promise<ServiceResult<MemberRecord>> {
    if (role === 'owner' && auth.role !== 'owner') {
      // Answer not_found for a stranger before forbidden, so the route never confirms other organisations' users.
      if (!(await this.accounts.findMember(auth.orgId, userId))) return refuse('not_found', NOT_A_MEMBER);
      return refuse('forbidden', 'Only an owner can grant the owner role.');
    }
    const result = await this.accounts.changeRole(auth.orgId, userId, role, auth.role === 'owner');
    return result.ok ? result : membershipRefusal(result.code);
  }

  async removeMember(auth: MemberAuth, userId: string): Promise<ServiceResult<void>> {
    const result = await this.accounts.removeMember(auth.orgId, userId, auth.role === 'owner');
    return result.ok ? result : membershipRefusal(result.code);
  }
}
