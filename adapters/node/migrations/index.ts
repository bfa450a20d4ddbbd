import type { Knex } from 'knex';
import { initialSchema } from './0001-initial-schema.js';
import { chatAndBilling } from './0002-chat-and-billing.js';
import { quotaReservations } from './0003-quota-reservations.js';
import { usagePartitions } from './0004-usage-partitions.js';
import { ownerLoop } from './0005-owner-loop.js';
import { consoleSessions } from './0006-console-sessions.js';
import { insightDaySummaries } from './0007-insight-day-summaries.js';
import { questionLogLeanInserts } from './0008-question-log-lean-inserts.js';
import { notFoundOutcome } from './0009-not-found-outcome.js';

/** One schema change. `name` orders the history and must never change once released. */
export interface Migration {
  readonly name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Every migration, oldest first. Imported as modules (not globbed from disk) so the bundled server carries them.
 * To add one: create `NNNN-what-it-does.ts` exporting a Migration and append it here.
 */
export const MIGRATIONS: readonly Migration[] = Object.freeze([initialSchema, chatAndBilling, quotaReservations, usagePartitions, ownerLoop, consoleSessions, insightDaySummaries, questionLogLeanInserts, notFoundOutcome]);

/** A knex migration source over an explicit list. */
export function createMigrationSource(migrations: readonly Migration[] = MIGRATIONS): Knex.MigrationSource<Migration> {
  return {
    getMigrations: async () => [...migrations],
    getMigrationName: (m) => m.name,
    getMigration: async (m) => m,
  };
}

/** Applies every pending migration (idempotent; knex's lock table keeps two replicas from racing). */
export async function migrateToLatest(knex: Knex, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource: createMigrationSource(migrations) })) as [number, string[]];
  return applied;
}
