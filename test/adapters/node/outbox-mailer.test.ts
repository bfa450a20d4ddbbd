import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createOutboxMailer } from '../../../adapters/node/outbox-mailer.js';

describe('createOutboxMailer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-outbox-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each message as an RFC 5322 .eml file under the outbox and reports where', async () => {
    const written: string[] = [];
    const mailer = createOutboxMailer({ dir: join(dir, 'outbox'), from: 'Kit <no-reply@localhost>', onWritten: ({ path }) => written.push(path) });
    await mailer.send({ kind: 'invitation', to: 'bob@example.test', subject: 'Join Acme', text: 'Accept: http://localhost:8787/console/accept-invite#token=kit_inv_x' });
    await mailer.send({ kind: 'password_reset', to: 'bob@example.test', subject: 'Reset', text: 'second' });
    const files = readdirSync(join(dir, 'outbox')).sort();
    expect(files).to.have.length(2);
    expect(files[0]).to.match(/-0001-invitation\.eml$/);
    expect(written.map((p) => p.split('/').pop())).to.deep.equal(files);
    const parsed = await simpleParser(readFileSync(join(dir, 'outbox', files[0]!)));
    expect(parsed.subject).to.equal('Join Acme');
    expect(parsed.text).to.include('#token=kit_inv_x');
    expect((parsed.to as { text: string }).text).to.equal('bob@example.test');
  });
});
