import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { QUEUE_STUB } from '../../../server/routes/sdk-files.js';
import type { Platform } from '../../../server/platform.js';
import { SDK_VERSION } from '../../../sdk/version.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform } from '../../support/platform.js';

describe('SDK files (/sdk/*)', () => {
  let platform: Platform;
  let sdkDir: string;
  const api = () => request(platform.app.callback());
  const KIT = 'window.Kit = { init() {} };\n';

  before(async function () {
    this.timeout(120_000);
    sdkDir = mkdtempSync(join(tmpdir(), 'kit-sdk-files-'));
    mkdirSync(join(sdkDir, 'chunks'));
    writeFileSync(join(sdkDir, 'kit.js'), KIT);
    writeFileSync(join(sdkDir, 'kit.mjs'), 'export const init = () => {};\n');
    writeFileSync(join(sdkDir, 'chunks', 'kit-ui.0123abcd.js'), 'export const x = 1;\n');
    platform = await createTestPlatform({ database: await sharedPglite(), env: { KIT_SDK_DIR: sdkDir, KIT_DEMO_DIR: resolvePath('demo') } });
  });
  after(async () => {
    await platform.close();
    rmSync(sdkDir, { recursive: true, force: true });
  });

  it('serves this version under /sdk/v{version}/ as immutable, chunks included, and the unversioned entry short-cached', async () => {
    const versioned = await api().get(`/sdk/v${SDK_VERSION}/kit.js`);
    expect(versioned.status).to.equal(200);
    expect(versioned.text).to.equal(KIT);
    expect(versioned.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(versioned.headers['access-control-allow-origin']).to.equal('*');
    const chunk = await api().get(`/sdk/v${SDK_VERSION}/chunks/kit-ui.0123abcd.js`);
    expect([chunk.status, chunk.headers['cache-control']]).to.deep.equal([200, 'public, max-age=31536000, immutable']);
    expect((await api().get('/sdk/kit.js')).headers['cache-control']).to.equal('public, max-age=300');
  });

  it('answers 404 for another version and never leaves the SDK directory through a versioned path', async () => {
    for (const path of ['/sdk/v0.0.1/kit.js', '/sdk/v99.0.0/kit.js', `/sdk/v${SDK_VERSION}/../package.json`, `/sdk/v${SDK_VERSION}/%2e%2e/x`, `/sdk/v${SDK_VERSION}/`, '/sdk/vX/kit.js']) {
      const res = await api().get(path);
      expect(res.status, path).to.equal(404);
    }
  });

  it('publishes the SRI hashes in manifest.json and a ready snippet with the queue stub', async () => {
    const manifest = await api().get('/sdk/manifest.json');
    expect(manifest.status).to.equal(200);
    const integrity = `sha384-${createHash('sha384').update(KIT).digest('base64')}`;
    expect(manifest.body).to.deep.equal({
      version: SDK_VERSION,
      script: { path: `/sdk/v${SDK_VERSION}/kit.js`, integrity },
      module: { path: `/sdk/v${SDK_VERSION}/kit.mjs`, integrity: `sha384-${createHash('sha384').update('export const init = () => {};\n').digest('base64')}` },
    });
    expect(manifest.headers['cache-control']).to.equal('public, max-age=60');
    const snippet = await api().get('/sdk/snippet.txt');
    expect(snippet.text).to.include(QUEUE_STUB).and.include(`src="http://127.0.0.1`).and.include(`integrity="${integrity}" crossorigin="anonymous"`);
    // The hash follows a rebuild.
    writeFileSync(join(sdkDir, 'kit.js'), KIT + '// rebuilt\n');
    const after = await api().get('/sdk/manifest.json');
    expect(after.body.script.integrity).to.equal(`sha384-${createHash('sha384').update(KIT + '// rebuilt\n').digest('base64')}`);
    writeFileSync(join(sdkDir, 'kit.js'), KIT);
  });

  it('keeps the stub small enough to inline', () => {
    expect(QUEUE_STUB.length).to.be.below(512);
    expect(() => new Function(QUEUE_STUB)).to.not.throw();
  });
});
