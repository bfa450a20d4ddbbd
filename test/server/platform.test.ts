import { spawn } from 'node:child_process';
import { expect } from 'chai';
import request from 'supertest';
import { MIGRATIONS, migrateToLatest } from '../../adapters/node/migrations/index.js';
import { createPlatform, JWT_SECRET_SETTING } from '../../server/platform.js';
import { createLogger } from '../../server/logger.js';
import { describeOnEachDatabase, pgliteDataDir } from '../support/databases.js';
import { testConfig } from '../support/platform.js';
import { loadConfig } from '../../server/config.js';

describe('createPlatform', () => {
  describeOnEachDatabase('migrations and secrets', (db) => {
    it('applies every migration once and is idempotent', async () => {
      await migrateToLatest(db().knex); // whatever an earlier suite left, the history is now complete
      expect(await migrateToLatest(db().knex)).to.deep.equal([]);
      const names = (await db().knex('knex_migrations').select('name').orderBy('id')).map((r: { name: string }) => r.name);
      expect(names).to.deep.equal(MIGRATIONS.map((m) => m.name));
    });

    it('generates the JWT secret once, stores it, and keeps tokens valid across a restart', async () => {
      const config = { ...testConfig(), jwtSecret: null };
      const first = await createPlatform(config, { database: db(), logger: createLogger('silent') });
      const signup = await request(first.app.callback()).post('/v1/auth/signup').send({ email: `restart-${Date.now()}@example.test`, password: 'restart password' });
      expect(signup.status).to.equal(201);
      await first.close();
      const stored = await db().knex('settings').where({ key: JWT_SECRET_SETTING }).first();
      expect(stored.value).to.have.length.greaterThan(40);
      const second = await createPlatform(config, { database: db(), logger: createLogger('silent') });
      try {
        expect((await request(second.app.callback()).get('/v1/org').set('authorization', `Bearer ${signup.body.token}`)).status).to.equal(200);
      } finally {
        await second.close();
      }
    });
  });

  it('keeps accounts in KIT_DATA_DIR across a restart of the embedded database', async function () {
    this.timeout(180_000);
    // The integration suites' data directory (closed between suites): reopening it is fast, a fresh one is not.
    const dir = pgliteDataDir();
    {
      const config = loadConfig({ KIT_DATA_DIR: dir, KIT_LOG_LEVEL: 'silent' });
      const email = `persist-${Date.now()}@example.test`;
      const first = await createPlatform(config);
      expect((await request(first.app.callback()).post('/v1/auth/signup').send({ email, password: 'persist password' })).status).to.equal(201);
      await first.close();
      const second = await createPlatform(config);
      try {
        const login = await request(second.app.callback()).post('/v1/auth/login').send({ email, password: 'persist password' });
        expect(login.status).to.equal(200);
      } finally {
        await second.close();
      }
    }
  });
});

describe('server/main.ts', () => {
  it('refuses to start with an invalid configuration, naming the variable', async function () {
    this.timeout(60_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { ...process.env, PORT: 'not-a-port', KIT_JWT_SECRET: 'short' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).to.equal(1);
    expect(stderr).to.include('PORT: must be a whole number').and.include('KIT_JWT_SECRET').and.not.include('short\n');
  });

  it('starts on the embedded database, answers /healthz, and stops cleanly on SIGTERM', async function () {
    this.timeout(180_000);
    const dir = pgliteDataDir();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_DATA_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /listening on (http:\/\/[^/]+)\/v1/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const health = await fetch(`${url}/healthz`);
      expect(health.status).to.equal(200);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
