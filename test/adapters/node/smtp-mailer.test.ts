import { expect } from 'chai';
import { createServer } from 'node:net';
import { createSmtpMailer } from '../../../adapters/node/smtp-mailer.js';
import type { MailerPort } from '../../../core/ports/mailer.port.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';

describe('createSmtpMailer (a real SMTP server on loopback)', () => {
  let smtp: TestSmtp;
  const mailers: MailerPort[] = [];
  before(async () => {
    smtp = await startTestSmtp();
  });
  afterEach(async () => {
    for (const m of mailers.splice(0)) await m.close();
  });
  after(() => smtp.stop());

  it('delivers text and HTML with the From, To and Subject given, authenticating with the URL credentials', async () => {
    const mailer = createSmtpMailer({ url: smtp.url, from: 'Kit <no-reply@kit.test>' });
    mailers.push(mailer);
    await mailer.send({ kind: 'password_reset', to: 'ada@example.test', subject: 'Reset your Kit password', text: 'Open https://kit.test/x', html: '<p>Open <a href="https://kit.test/x">it</a></p>' });
    const mail = await smtp.waitFor((m) => m.to.includes('ada@example.test'));
    expect(mail.from).to.equal('no-reply@kit.test');
    expect(mail.subject).to.equal('Reset your Kit password');
    expect(mail.text.trim()).to.equal('Open https://kit.test/x');
    expect(mail.html).to.include('<a href="https://kit.test/x">');
    expect(mail.headers.get('x-kit-mail')).to.equal('password_reset');
  });

  it('rejects when the server refuses the credentials', async () => {
    const mailer = createSmtpMailer({ url: `smtp://${smtp.user}:wrong@127.0.0.1:${smtp.port}`, from: 'no-reply@kit.test' });
    mailers.push(mailer);
    const before = smtp.rejectedLogins;
    let error: unknown = null;
    await mailer.send({ kind: 'invitation', to: 'x@example.test', subject: 's', text: 't' }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect(smtp.rejectedLogins).to.be.greaterThan(before);
  });

  it('rejects within its timeout when the server never greets', async () => {
    const silent = createServer(() => undefined); // accepts connections, says nothing
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as { port: number }).port;
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'no-reply@kit.test', timeoutMs: 300 });
    mailers.push(mailer);
    const started = Date.now();
    let error: unknown = null;
    await mailer.send({ kind: 'invitation', to: 'x@example.test', subject: 's', text: 't' }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect(Date.now() - started).to.be.lessThan(5_000);
    silent.close();
  });
});
