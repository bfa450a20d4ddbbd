import type { Knex } from 'knex';

/** Accounts, organisations, keys, usage, rate-limit counters and server settings. */
export const initialSchema = {
  name: '0001-initial-schema',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('settings', (t) => {
      t.text('key').primary();
      t.text('value').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });

    await knex.schema.createTable('users', (t) => {
      t.text('id').primary();
      t.text('email').notNullable().unique();
      t.text('name');
      t.text('password_hash').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });

    await knex.schema.createTable('organizations', (t) => {
      t.text('id').primary();
      t.text('name').notNullable();
      t.text('tier').notNullable().defaultTo('free');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.check("tier in ('free', 'pro', 'business')", [], 'organizations_tier_check');
    });

    await knex.schema.createTable('memberships', (t) => {
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.text('role').notNullable();
      t.timestamp('joined_at', { useTz: true }).notNullable();
      t.primary(['org_id', 'user_id']);
      t.index(['user_id']);
      t.check("role in ('owner', 'admin', 'developer', 'viewer')", [], 'memberships_role_check');
    });

    await knex.schema.createTable('invitations', (t) => {
      t.text('id').primary();
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.text('email').notNullable();
      t.text('role').notNullable();
      t.text('token_hash').notNullable().unique();
      t.text('invited_by').references('id').inTable('users').onDelete('SET NULL');
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('accepted_at', { useTz: true });
      t.text('accepted_by').references('id').inTable('users').onDelete('SET NULL');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['org_id', 'email']);
      t.check("role in ('owner', 'admin', 'developer', 'viewer')", [], 'invitations_role_check');
    });

    await knex.schema.createTable('api_keys', (t) => {
      t.text('id').primary();
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.text('kind').notNullable();
      t.text('name').notNullable();
      t.text('prefix').notNullable();
      t.text('last4').notNullable();
      t.text('value');
      t.text('hash').notNullable().unique();
      t.jsonb('allowed_origins').notNullable().defaultTo('[]');
      t.jsonb('ip_allowlist').notNullable().defaultTo('[]');
      t.text('created_by').references('id').inTable('users').onDelete('SET NULL');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('last_used_at', { useTz: true });
      t.timestamp('expires_at', { useTz: true });
      t.timestamp('revoked_at', { useTz: true });
      t.text('rotated_from');
      t.index(['org_id', 'created_at', 'id']);
      t.check("kind in ('publishable', 'secret')", [], 'api_keys_kind_check');
      t.check("kind = 'publishable' or value is null", [], 'api_keys_secret_value_check');
    });

    await knex.schema.createTable('usage_events', (t) => {
      t.bigIncrements('id').primary();
      t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.text('key_id').references('id').inTable('api_keys').onDelete('SET NULL');
      t.text('mode').notNullable();
      t.text('model').notNullable();
      t.integer('input_tokens').notNullable();
      t.integer('output_tokens').notNullable();
      t.boolean('refused').notNullable();
      t.text('request_id').notNullable().unique();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['org_id', 'created_at']);
      t.index(['org_id', 'key_id', 'created_at']);
      t.check("mode in ('remote', 'local')", [], 'usage_events_mode_check');
      t.check('input_tokens >= 0 and output_tokens >= 0', [], 'usage_events_tokens_check');
    });

    await knex.schema.createTable('rate_limits', (t) => {
      t.text('bucket').notNullable();
      t.timestamp('window_start', { useTz: true }).notNullable();
      t.integer('count').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.primary(['bucket', 'window_start']);
      t.index(['expires_at']);
    });
  },
  async down(knex: Knex): Promise<void> {
    for (const table of ['rate_limits', 'usage_events', 'api_keys', 'invitations', 'memberships', 'organizations', 'users', 'settings']) {
      await knex.schema.dropTableIfExists(table);
    }
  },
};
