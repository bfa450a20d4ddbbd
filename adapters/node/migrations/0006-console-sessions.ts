import type { Knex } from 'knex';

/**
 * Issue 14, the console: browser sessions (an HttpOnly cookie whose SHA-256 is the key; revocable, unlike the
 * 1-hour JWT) and password-reset tokens (SHA-256 stored, used once).
 */
export const consoleSessions = {
  name: '0006-console-sessions',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('browser_sessions', (t) => {
      t.text('token_hash').primary();
      t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('last_seen_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.index(['user_id']);
      t.index(['expires_at']);
    });
    await knex.schema.createTable('password_resets', (t) => {
      t.text('token_hash').primary();
      t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
      t.index(['user_id']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTableIfExists('password_resets');
    await knex.schema.dropTableIfExists('browser_sessions');
  },
};
