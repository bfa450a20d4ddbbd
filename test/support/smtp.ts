import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the loopback SMTP server accepted, parsed. */
export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
  readonly headers: ReadonlyMap<string, unknown>;
  readonly raw: string;
}

/** A real SMTP server (npm smtp-server) on 127.0.0.1 requiring a user and password; messages are parsed with mailparser. */
export interface TestSmtp {
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** smtp://user:password@127.0.0.1:port */
  readonly url: string;
  readonly messages: ReceivedMail[];
  /** Resolves with the first message (received before or after the call) that `match` accepts. */
  waitFor(match: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Failed AUTH attempts (wrong credentials). */
  readonly rejectedLogins: number;
  stop(): Promise<void>;
}

/** Starts the loopback SMTP server (STARTTLS off: no certificate here; AUTH over the loopback is allowed). */
export async function startTestSmtp(): Promise<TestSmtp> {
  const user = 'kit-mailer';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const messages: ReceivedMail[] = [];
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  let rejected = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) return callback(null, { user });
      rejected += 1;
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = await simpleParser(raw);
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : null,
          headers: parsed.headers,
          raw,
        };
        messages.push(mail);
        for (const w of [...waiters]) {
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    user,
    password,
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    messages,
    get rejectedLogins() {
      return rejected;
    },
    waitFor(match, timeoutMs = 15_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (m: ReceivedMail) => { clearTimeout(timer); resolve(m); } };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching email within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const match = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S+`).exec(mail.text);
  if (!match) throw new Error(`no link starting with ${prefix} in: ${mail.text}`);
  return match[0];
}
