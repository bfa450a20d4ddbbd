/** One email Kit sends (a password-reset link, an invitation). Plain text always; HTML optional. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** What the message is for (`password_reset`, `invitation`), for logs; never the message's secrets. */
  readonly kind: string;
}

/** Sends email: SMTP in production, a development outbox (files and the log) when no SMTP server is configured. */
export interface MailerPort {
  /** Resolves once the message is accepted (by the SMTP server, or written to the outbox); rejects when it was not. */
  send(message: MailMessage): Promise<void>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}
