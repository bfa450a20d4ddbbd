import { expect } from 'chai';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnexDatabase } from '../../adapters/node/knex-database.js';
import { MIGRATIONS } from '../../adapters/node/migrations/index.js';
import { claimOwnedDir, createOwnedTempDir, dirOwnerAlive } from './owned-temp-dir.js';
import { copyDataTemplate, dataTemplate } from './data-template.js';

/** Rows of every table in the public schema, by table. */
async function rowCounts(knex: import('knex').Knex): Promise<Record<string, number>> {
  const tables = (await knex.raw(`select tablename from pg_tables where schemaname = 'public' order by tablename`)).rows as { tablename: string }[];
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) counts[tablename] = Number((await knex.raw(`select count(*) as n from "${tablename}"`)).rows[0].n);
  return counts;
}

describe("e2e servers' data directory template (test/e2e/support/data-template.ts)", function () {
  this.timeout(180_000);

  it('is the embedded database a first start has once migrated: every migration, and rows in knex\'s tables only', async () => {
    const template = await dataTemplate();
    expect(template, 'no template was made').to.be.a('string');
    expect(readdirSync(template!)).to.include('PG_VERSION').and.not.include('kit.lock').and.not.include('kit-owner.json');
    const dir = createOwnedTempDir('kit-e2e-');
    try {
      copyDataTemplate(template!, dir);
      const copy = await createKnexDatabase({ kind: 'pglite', dataDir: dir });
      try {
        const applied = (await copy.knex('knex_migrations').orderBy('id').pluck('name')) as string[];
        expect(applied).to.deep.equal(MIGRATIONS.map((m) => m.name));
        // Rows only in knex's own tables, as after migrations alone: no settings (each server generates its secrets)
        // and no demo organization (each server seeds its own).
        const counts = await rowCounts(copy.knex);
        expect(Object.keys(counts).length).to.be.at.least(20);
        expect(Object.entries(counts).filter(([, n]) => n > 0)).to.deep.equal([['knex_migrations', MIGRATIONS.length], ['knex_migrations_lock', 1]]);
      } finally {
        await copy.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is made by one process of a run: a name is claimed once, and its owner is known alive', () => {
    const name = `kit-e2e-claim-test-${process.pid}-${Date.now()}`;
    const claimed = claimOwnedDir(name);
    try {
      expect(claimed).to.equal(join(tmpdir(), name));
      expect(claimOwnedDir(name)).to.equal(null);
      expect(dirOwnerAlive(claimed!)).to.equal(true);
    } finally {
      rmSync(claimed!, { recursive: true, force: true });
    }
    expect(existsSync(claimed!)).to.equal(false);
  });
});
