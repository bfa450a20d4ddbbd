import type { Knex } from 'knex';
import { fail, ok } from '../../core/errors/index.js';
import type {
  AccountStorePort,
  InvitationRecord,
  MemberRecord,
  OrganizationRecord,
  Role,
  Tier,
  UserRecord,
} from '../../core/ports/account-store.port.js';
import { isUniqueViolation } from './pg-errors.js';

type UserRow = { id: string; email: string; name: string | null; password_hash: string; created_at: Date };
type OrgRow = { id: string; name: string; tier: Tier; created_at: Date };
type MemberRow = { org_id: string; user_id: string; email: string; name: string | null; role: Role; joined_at: Date };
type InvitationRow = {
  id: string;
  org_id: string;
  email: string;
  role: Role;
  token_hash: string;
  invited_by: string;
  expires_at: Date;
  created_at: Date;
};

const toUser = (r: UserRow): UserRecord => ({ id: r.id, email: r.email, name: r.name, passwordHash: r.password_hash, createdAt: r.created_at });
const toOrg = (r: OrgRow): OrganizationRecord => ({ id: r.id, name: r.name, tier: r.tier, createdAt: r.created_at });
const toMember = (r: MemberRow): MemberRecord => ({ orgId: r.org_id, userId: r.user_id, email: r.email, name: r.name, role: r.role, joinedAt: r.joined_at });
const toInvitation = (r: InvitationRow): InvitationRecord => ({
  id: r.id,
  orgId: r.org_id,
  email: r.email,
  role: r.role,
  tokenHash: r.token_hash,
  invitedBy: r.invited_by,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

const userRow = (u: UserRecord): UserRow => ({ id: u.id, email: u.email, name: u.name, password_hash: u.passwordHash, created_at: u.createdAt });
const MEMBER_COLUMNS = ['m.org_id', 'm.user_id', 'u.email', 'u.name', 'm.role', 'm.joined_at'];

function members(db: Knex | Knex.Transaction) {
  return db('memberships as m').join('users as u', 'u.id', 'm.user_id').select<MemberRow[]>(MEMBER_COLUMNS);
}

/** Account, organisation, membership and invitation storage on PostgreSQL or PGlite through knex. */
export function createPgAccountStore(knex: Knex): AccountStorePort {
  async function lockMembers(trx: Knex.Transaction, orgId: string): Promise<Array<{ user_id: string; role: Role }>> {
    // Locking every membership row of the organisation serialises concurrent owner changes, so two owners
    // demoting each other cannot both succeed and leave the organisation without one.
    return trx('memberships').where({ org_id: orgId }).select('user_id', 'role').forUpdate();
  }

  async function pendingInvitation(trx: Knex.Transaction, invitationId: string, now: Date): Promise<InvitationRow | undefined> {
    return trx<InvitationRow>('invitations').where({ id: invitationId }).whereNull('accepted_at').where('expires_at', '>', now).forUpdate().first();
  }

  async function join(trx: Knex.Transaction, invitation: InvitationRow, userId: string, now: Date): Promise<void> {
    await trx('memberships').insert({ org_id: invitation.org_id, user_id: userId, role: invitation.role, joined_at: now });
    await trx('invitations').where({ id: invitation.id }).update({ accepted_at: now, accepted_by: userId });
  }

  return {
    async createAccount(user, organization) {
      try {
        await knex.transaction(async (trx) => {
          await trx('users').insert(userRow(user));
          await trx('organizations').insert({ id: organization.id, name: organization.name, tier: organization.tier, created_at: organization.createdAt });
          await trx('memberships').insert({ org_id: organization.id, user_id: user.id, role: 'owner', joined_at: user.createdAt });
        });
      } catch (err) {
        if (isUniqueViolation(err, 'users_email_unique')) return fail('email_taken', 'email already registered');
        throw err;
      }
      return ok({ orgId: organization.id, userId: user.id, email: user.email, name: user.name, role: 'owner' as const, joinedAt: user.createdAt });
    },

    async createUserFromInvitation(user, invitationId, now) {
      try {
        const member = await knex.transaction(async (trx) => {
          const invitation = await pendingInvitation(trx, invitationId, now);
          if (!invitation) return null;
          await trx('users').insert(userRow(user));
          await join(trx, invitation, user.id, now);
          return { orgId: invitation.org_id, userId: user.id, email: user.email, name: user.name, role: invitation.role, joinedAt: now };
        });
        return member ? ok(member) : fail('invitation_invalid', 'invitation is unknown, used or expired');
      } catch (err) {
        if (isUniqueViolation(err, 'users_email_unique')) return fail('email_taken', 'email already registered');
        throw err;
      }
    },

    async acceptInvitation(userId, invitationId, now) {
      const result = await knex.transaction(async (trx) => {
        const invitation = await pendingInvitation(trx, invitationId, now);
        if (!invitation) return 'invitation_invalid' as const;
        if (await trx('memberships').where({ org_id: invitation.org_id, user_id: userId }).first()) return 'already_member' as const;
        await join(trx, invitation, userId, now);
        return invitation;
      });
      if (result === 'invitation_invalid') return fail('invitation_invalid', 'invitation is unknown, used or expired');
      if (result === 'already_member') return fail('already_member', 'already a member');
      const member = await members(knex).where({ 'm.org_id': result.org_id, 'm.user_id': userId }).first();
      return ok(toMember(member!));
    },

    async findUserByEmail(email) {
      const row = await knex<UserRow>('users').where({ email }).first();
      return row ? toUser(row) : null;
    },

    async listMembershipsOfUser(userId) {
      const rows = await members(knex).where('m.user_id', userId).orderBy([{ column: 'm.joined_at' }, { column: 'm.org_id' }]);
      return rows.map(toMember);
    },

    async findMember(orgId, userId) {
      const row = await members(knex).where({ 'm.org_id': orgId, 'm.user_id': userId }).first();
      return row ? toMember(row) : null;
    },

    async findOrganization(orgId) {
      const row = await knex<OrgRow>('organizations').where({ id: orgId }).first();
      if (!row) return null;
      const count = await knex('memberships').where({ org_id: orgId }).count<{ n: number }[]>({ n: '*' });
      return { ...toOrg(row), memberCount: Number(count[0]!.n) };
    },

    async renameOrganization(orgId, name) {
      await knex('organizations').where({ id: orgId }).update({ name });
    },

    async listMembers(orgId, page) {
      const query = members(knex).where('m.org_id', orgId);
      if (page.startingAfter !== undefined) {
        const cursor = await knex('memberships').where({ org_id: orgId, user_id: page.startingAfter }).first<{ joined_at: Date } | undefined>();
        if (!cursor) return fail('bad_cursor', 'starting_after is not a member of this organisation');
        query.whereRaw('(m.joined_at, m.user_id) > (?, ?)', [cursor.joined_at, page.startingAfter]);
      }
      const rows = await query.orderBy([{ column: 'm.joined_at' }, { column: 'm.user_id' }]).limit(page.limit + 1);
      return ok({ data: rows.slice(0, page.limit).map(toMember), hasMore: rows.length > page.limit });
    },

    async changeRole(orgId, userId, role, mayTouchOwners) {
      const problem = await knex.transaction(async (trx) => {
        const all = await lockMembers(trx, orgId);
        const target = all.find((m) => m.user_id === userId);
        if (!target) return 'not_found' as const;
        if (target.role === 'owner' && !mayTouchOwners) return 'owner_protected' as const;
        if (target.role === 'owner' && role !== 'owner' && all.filter((m) => m.role === 'owner').length === 1) return 'last_owner' as const;
        if (target.role !== role) await trx('memberships').where({ org_id: orgId, user_id: userId }).update({ role });
        return null;
      });
      if (problem) return fail(problem, problem.replace('_', ' '));
      const row = await members(knex).where({ 'm.org_id': orgId, 'm.user_id': userId }).first();
      return row ? ok(toMember(row)) : fail('not_found', 'not found');
    },

    async removeMember(orgId, userId, mayTouchOwners) {
      const problem = await knex.transaction(async (trx) => {
        const all = await lockMembers(trx, orgId);
        const target = all.find((m) => m.user_id === userId);
        if (!target) return 'not_found' as const;
        if (target.role === 'owner' && !mayTouchOwners) return 'owner_protected' as const;
        if (target.role === 'owner' && all.filter((m) => m.role === 'owner').length === 1) return 'last_owner' as const;
        await trx('memberships').where({ org_id: orgId, user_id: userId }).delete();
        return null;
      });
      return problem ? fail(problem, problem.replace('_', ' ')) : ok(undefined);
    },

    async createInvitation(invitation) {
      const problem = await knex.transaction(async (trx) => {
        const member = await trx('memberships as m')
          .join('users as u', 'u.id', 'm.user_id')
          .where({ 'm.org_id': invitation.orgId, 'u.email': invitation.email })
          .first('m.user_id');
        if (member) return 'already_member' as const;
        await trx('invitations').where({ org_id: invitation.orgId, email: invitation.email }).whereNull('accepted_at').delete();
        await trx('invitations').insert({
          id: invitation.id,
          org_id: invitation.orgId,
          email: invitation.email,
          role: invitation.role,
          token_hash: invitation.tokenHash,
          invited_by: invitation.invitedBy,
          expires_at: invitation.expiresAt,
          created_at: invitation.createdAt,
        });
        return null;
      });
      return problem ? fail(problem, 'already a member') : ok(undefined);
    },

    async findInvitationByTokenHash(tokenHash, now) {
      const row = await knex<InvitationRow>('invitations').where({ token_hash: tokenHash }).whereNull('accepted_at').where('expires_at', '>', now).first();
      return row ? toInvitation(row) : null;
    },

    async findUserById(userId) {
      const row = await knex<UserRow>('users').where({ id: userId }).first();
      return row ? toUser(row) : null;
    },

    async listPendingInvitations(orgId, now) {
      const rows = await knex<InvitationRow>('invitations').where({ org_id: orgId }).whereNull('accepted_at').where('expires_at', '>', now).orderBy('created_at', 'desc').limit(200);
      return rows.map(toInvitation);
    },

    async revokeInvitation(orgId, invitationId) {
      // `returning` rather than the affected-row count, which knex-pglite does not report for deletes.
      const deleted = await knex('invitations').where({ org_id: orgId, id: invitationId }).whereNull('accepted_at').delete().returning('id');
      return deleted.length > 0;
    },
  };
}
