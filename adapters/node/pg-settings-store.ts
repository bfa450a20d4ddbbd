import type { Knex } from 'knex';

/** Small server-wide values kept in the database (e.g. the generated JWT signing secret). */
export interface SettingsStore {
  get(key: string): Promise<string | null>;
  /** Stores `value` unless `key` exists, and returns what is stored: the first replica to write wins. */
  getOrCreate(key: string, create: () => string): Promise<string>;
}

/** Settings in the `settings` table. */
export function createPgSettingsStore(knex: Knex): SettingsStore {
  const get = async (key: string): Promise<string | null> => {
    const row = await knex('settings').where({ key }).first<{ value: string } | undefined>('value');
    return row?.value ?? null;
  };
  return {
    get,
    async getOrCreate(key, create) {
      const existing = await get(key);
      if (existing !== null) return existing;
      await knex('settings').insert({ key, value: create() }).onConflict('key').ignore();
      return (await get(key))!;
    },
  };
}
