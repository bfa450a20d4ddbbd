import type { Knex } from 'knex';
import { fail, ok } from '../../core/errors/index.js';
import type { PasswordResetStorePort } from '../../core/ports/password-reset-store.port.js';

/** Password-reset tokens in `password_resets` (migration 0006); the claim is one conditional UPDATE. */
export function createPgPasswordResetStore(knex: Knex): PasswordResetStorePort {
  return {
    async create(reset) {
      await knex('password_resets').insert({ token_hash: reset.tokenHash, user_id: reset.userId, created_at: reset.createdAt, expires_at: reset.expiresAt });
    },
    async consume(tokenHash, passwordHash, now) {
      return knex.transaction(async (trx) => {
        // The row lock taken by this UPDATE makes a concurrent claim of the same token wait, then find used_at set.
        const claimed = await trx('password_resets')
          .where({ token_hash: tokenHash })
          .whereNull('used_at')
          .where('expires_at', '>', now)
          .update({ used_at: now })
          .returning<{ user_id: string }[]>('user_id');
        const userId = claimed[0]?.user_id;
        if (!userId) return fail('invalid' as const, 'The reset link is unknown, already used or expired.');
        await trx('users').where({ id: userId }).update({ password_hash: passwordHash });
        await trx('password_resets').where({ user_id: userId }).whereNull('used_at').update({ used_at: now });
        const sessionsRevoked = (await trx('browser_sessions').where({ user_id: userId }).delete().returning('token_hash')).length;
        return ok({ userId, sessionsRevoked });
      });
    },
  };
}
