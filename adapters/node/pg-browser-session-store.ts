import type { Knex } from 'knex';
import type { BrowserSessionRecord, BrowserSessionStorePort } from '../../core/ports/browser-session-store.port.js';

type Row = { token_hash: string; user_id: string; org_id: string; created_at: Date; last_seen_at: Date; expires_at: Date };

const toRecord = (r: Row): BrowserSessionRecord => ({
  tokenHash: r.token_hash,
  userId: r.user_id,
  orgId: r.org_id,
  createdAt: new Date(r.created_at),
  lastSeenAt: new Date(r.last_seen_at),
  expiresAt: new Date(r.expires_at),
});

/** Browser sessions in the `browser_sessions` table (migration 0006). */
export function createPgBrowserSessionStore(knex: Knex): BrowserSessionStorePort {
  return {
    async create(s) {
      await knex('browser_sessions').insert({
        token_hash: s.tokenHash,
        user_id: s.userId,
        org_id: s.orgId,
        created_at: s.createdAt,
        last_seen_at: s.lastSeenAt,
        expires_at: s.expiresAt,
      });
    },
    async find(tokenHash) {
      const row = await knex<Row>('browser_sessions').where({ token_hash: tokenHash }).first();
      return row ? toRecord(row) : null;
    },
    async touch(tokenHash, at) {
      await knex('browser_sessions').where({ token_hash: tokenHash }).update({ last_seen_at: at });
    },
    async switchOrganization(tokenHash, orgId) {
      await knex('browser_sessions').where({ token_hash: tokenHash }).update({ org_id: orgId });
    },
    // Counts come from `returning`: knex-pglite does not report affected rows for deletes.
    async revoke(tokenHash) {
      return (await knex('browser_sessions').where({ token_hash: tokenHash }).delete().returning('token_hash')).length > 0;
    },
    async revokeAllOfUser(userId) {
      return (await knex('browser_sessions').where({ user_id: userId }).delete().returning('token_hash')).length;
    },
    async purgeExpired(now, idleSince) {
      return (await knex('browser_sessions').where('expires_at', '<=', now).orWhere('last_seen_at', '<', idleSince).delete().returning('token_hash')).length;
    },
  };
}
