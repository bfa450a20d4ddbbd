import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { MailerPort, MailMessage } from '../../core/ports/mailer.port.js';

/** Options of the development outbox. */
export interface OutboxMailerOptions {
  /** Directory the `.eml` files are written to (`KIT_DATA_DIR/outbox`). */
  readonly dir: string;
  readonly from: string;
  /** Told about each message written: where it is and its plain text (so a developer can click the link). */
  readonly onWritten?: (info: { readonly path: string; readonly message: MailMessage }) => void;
}

/**
 * The development transport, used when no SMTP server is configured: each message is composed by nodemailer
 * exactly as it would be sent (RFC 5322) and written to `<dir>/<time>-<kind>.eml`, and reported through
 * `onWritten` (the server logs its recipient, subject and text). Nothing leaves the machine.
 */
export function createOutboxMailer(options: OutboxMailerOptions): MailerPort {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(message: MailMessage): Promise<void> {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        headers: { 'X-Kit-Mail': message.kind },
      });
      await mkdir(options.dir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const path = join(options.dir, `${stamp}-${String(++sequence).padStart(4, '0')}-${message.kind.replace(/[^a-z_]/g, '')}.eml`);
      await writeFile(path, info.message as Buffer, { mode: 0o600 });
      options.onWritten?.({ path, message });
    },
    async close(): Promise<void> {},
  };
}
