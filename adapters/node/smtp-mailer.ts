import nodemailer from 'nodemailer';
import type { MailerPort, MailMessage } from '../../core/ports/mailer.port.js';

/** Options of the SMTP mailer (`KIT_SMTP_URL`, `KIT_MAIL_FROM`). */
export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS from the start). */
  readonly url: string;
  /** The From header, e.g. `Kit <no-reply@example.com>`. */
  readonly from: string;
  /** Connection, greeting and socket timeouts in ms; default 10 000 (a stuck relay must not hold a request). */
  readonly timeoutMs?: number;
  /** Accept a self-signed certificate (tests with a loopback server); default false. */
  readonly allowSelfSigned?: boolean;
}

/** Sends Kit's email through an SMTP relay with nodemailer's pooled transport. */
export function createSmtpMailer(options: SmtpMailerOptions): MailerPort {
  const timeout = options.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    ...(options.allowSelfSigned ? { tls: { rejectUnauthorized: false } } : {}),
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    async send(message: MailMessage): Promise<void> {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        headers: { 'X-Kit-Mail': message.kind },
      });
    },
    async close(): Promise<void> {
      transport.close();
    },
  };
}
