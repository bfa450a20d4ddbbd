import type { Knex } from 'knex';
import type { OrgDeletionPort } from '../../core/ports/org-deletion.port.js';

/**
 * Deletes an organisation in one transaction: its row locked and its name checked again (a rename in between deletes
 * nothing), then every table that holds its data — memberships, invitations, keys, usage rows and rollups, meters,
 * assistant and logging settings, the question log, counts and group summaries — through the schema's
 * `on delete cascade` from `organizations`, and the accounts of members who belong to no other organisation.
 * The question summaries go first: the question log's statement triggers then have no summaries left to update.
 * `billing_events` keeps its event ids (no personal data) so a redelivered Stripe event is still recognised.
 */
export function createPgOrgDeletion(knex: Knex): OrgDeletionPort {
  return {
    async deleteOrganization(orgId, confirmedName) {
      return knex.transaction(async (trx) => {
        const org = await trx('organizations').where({ id: orgId }).forUpdate().first<{ name: string } | undefined>('name');
        if (!org) return { outcome: 'not_found' as const };
        if (org.name !== confirmedName) return { outcome: 'name_changed' as const };
        const keyHashes = (await trx('api_keys').where({ org_id: orgId }).select<Array<{ hash: string }>>('hash')).map((k) => k.hash);
        // Members whose only organisation this is: their accounts go too (they could no longer log in to anything).
        const { rows: orphans } = (await trx.raw(
          `select m.user_id from memberships m
            where m.org_id = ? and not exists (select 1 from memberships o where o.user_id = m.user_id and o.org_id <> m.org_id)`,
          [orgId],
        )) as { rows: Array<{ user_id: string }> };
        for (const table of ['question_groups', 'question_day_groups', 'question_day_gap_pages', 'question_gap_pages', 'question_day_votes']) await trx(table).where({ org_id: orgId }).delete();
        await trx('organizations').where({ id: orgId }).delete();
        if (orphans.length > 0) await trx('users').whereIn('id', orphans.map((o) => o.user_id)).delete();
        return { outcome: 'deleted' as const, keyHashes, usersDeleted: orphans.length };
      });
    },
  };
}
