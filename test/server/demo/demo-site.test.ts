import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { DEMO_KEY_SETTING } from '../../../server/demo/demo-site.js';
import type { Platform } from '../../../server/platform.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, seedOrg } from '../../support/platform.js';
import { createKeys } from '../support/chat.js';

describe('DemoSite', () => {
  let platform: Platform;
  let sdkDir: string;
  let demoKey: string;
  const api = () => request(platform.app.callback());

  before(async function () {
    this.timeout(120_000);
    sdkDir = mkdtempSync(join(tmpdir(), 'kit-sdk-'));
    mkdirSync(join(sdkDir, 'chunks'));
    writeFileSync(join(sdkDir, 'kit.js'), 'window.Kit = {};\n');
    writeFileSync(join(sdkDir, 'kit.js.map'), '{"version":3}');
    writeFileSync(join(sdkDir, 'chunks', 'kit-runtime.0123abcd.js'), 'export const x = 1;\n');
    writeFileSync(join(sdkDir, '.secret'), 'no');
    platform = await createTestPlatform({ database: await sharedPglite(), env: { KIT_SDK_DIR: sdkDir, KIT_DEMO_DIR: resolvePath('demo') } });
    // What seedDemo leaves behind on a fresh database (tested in seed-demo.test.ts): the setting naming the key.
    const keys = await createKeys(platform, await seedOrg(platform, 'demo-site'), { allowedOrigins: [] });
    demoKey = keys.publishable;
    await platform.database.knex('settings').insert({ key: DEMO_KEY_SETTING, value: keys.publishableId }).onConflict('key').merge();
  });
  after(async () => {
    await platform.close();
    rmSync(sdkDir, { recursive: true, force: true });
  });

  it('serves the SDK entry with JavaScript type, CORS for any site and a short cache', async () => {
    const res = await api().get('/sdk/kit.js').set('origin', 'https://any.example');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['cross-origin-resource-policy']).to.equal('cross-origin');
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
    expect(res.text).to.equal('window.Kit = {};\n');
    const again = await api().get('/sdk/kit.js').set('if-none-match', res.headers.etag!);
    expect(again.status).to.equal(304);
    const head = await api().head('/sdk/kit.js');
    expect([head.status, head.headers['content-length']]).to.deep.equal([200, '17']);
  });

  it('serves content-hashed chunks as immutable and source maps as JSON', async () => {
    const chunk = await api().get('/sdk/chunks/kit-runtime.0123abcd.js');
    expect(chunk.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(chunk.headers['access-control-allow-origin']).to.equal('*');
    expect((await api().get('/sdk/kit.js.map')).headers['content-type']).to.equal('application/json; charset=utf-8');
  });

  it('never serves files outside the SDK directory, dot-files or directories', async () => {
    for (const path of ['/sdk/../package.json', '/sdk/%2e%2e/package.json', '/sdk/..%2fpackage.json', '/sdk/.secret', '/sdk/chunks', '/sdk/chunks/', '/sdk/%00kit.js', '/sdk/nothing.js']) {
      const res = await api().get(path);
      expect(res.status, path).to.equal(404);
    }
  });

  it('fills the demo pages with the demo key, the SDK URL, the endpoint and the origin', async () => {
    const page = await api().get('/demo/').set('host', 'localhost:8787');
    expect(page.status).to.equal(200);
    expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(page.text).to.include(`apiKey: '${demoKey}'`).and.include('src="/sdk/kit.js"').and.include("endpoint: 'http://localhost:8787/v1'");
    expect(page.text).to.not.include('{{');
    const sitemap = await api().get('/demo/sitemap.xml').set('host', 'localhost:8787');
    expect(sitemap.headers['content-type']).to.equal('application/xml; charset=utf-8');
    expect(sitemap.text).to.include('<loc>http://localhost:8787/demo/pricing.html</loc>');
    expect((await api().get('/demo/docs/tent-care.html')).text).to.include(demoKey);
    expect((await api().get('/demo/style.css')).headers['content-type']).to.equal('text/css; charset=utf-8');
    const redirect = await api().get('/');
    expect([redirect.status, redirect.headers.location]).to.deep.equal([302, '/demo/']);
  });

  it('answers a clear 503 for the SDK script when dist/sdk was not built', async function () {
    this.timeout(60_000);
    const unbuilt = await createTestPlatform({ database: await sharedPglite(), env: { KIT_SDK_DIR: join(sdkDir, 'missing') } });
    try {
      const res = await request(unbuilt.app.callback()).get('/sdk/kit.js');
      expect(res.status).to.equal(503);
      expect(res.text).to.include('npm run build');
      expect((await request(unbuilt.app.callback()).get('/sdk/chunks/x.js')).status).to.equal(404);
    } finally {
      await unbuilt.close();
    }
  });
});
