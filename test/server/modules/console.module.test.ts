import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../server/logger.js';
import { createMailer } from '../../../server/modules/console.module.js';
import { logCapture, testConfig } from '../../support/platform.js';

describe('createMailer (no KIT_SMTP_URL: the development outbox)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-mailer-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const link = 'http://localhost:8787/console/accept-invite#token=kit_inv_0123456789abcdefghijABCDEFGHIJ0123456789';

  async function sendWith(env: Record<string, string>): Promise<string> {
    const logs = logCapture();
    const mailer = createMailer(testConfig({ KIT_DATA_DIR: dir, ...env }), createLogger('info', logs.stream));
    await mailer.send({ kind: 'invitation', to: 'bob@example.test', subject: 'Join Acme', text: `Accept: ${link}` });
    return logs.lines.join('\n');
  }

  it('logs the email text, link included, outside production so a developer can follow it', async () => {
    const line = await sendWith({});
    expect(line).to.include('email written to the outbox').and.include(link).and.include(join(dir, 'outbox'));
  });

  it('logs only where the email went and to whom under NODE_ENV=production, never its one-time link', async () => {
    const line = await sendWith({ NODE_ENV: 'production' });
    expect(line).to.include('email written to the outbox').and.include('bob@example.test').and.include(join(dir, 'outbox'));
    expect(line).to.not.include('kit_inv_');
  });
});
