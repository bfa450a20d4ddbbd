import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/** One siteverify call the fake received. */
export interface SiteverifyCall {
  readonly contentType: string | undefined;
  readonly form: Record<string, string>;
}

/** Options of the fake siteverify server. */
export interface FakeTurnstileOptions {
  readonly secret: string;
  /** Cloudflare refuses a token's second validation; turn off to prove the replay store alone stops reuse. */
  readonly enforceSingleUse?: boolean;
}

/**
 * A loopback imitation of Cloudflare's siteverify (POST form `secret`, `response`, `remoteip`; JSON answer with
 * `success`, `challenge_ts`, `hostname`, `error-codes`, `action`, `cdata`). Tokens are minted by `issueToken`,
 * as if the widget had been solved on `hostname`.
 */
export class FakeTurnstileServer {
  readonly calls: SiteverifyCall[] = [];
  /** Delay before answering, to provoke timeouts. */
  delayMs = 0;
  /** When set, answer this HTTP status with an empty body. */
  failStatus: number | undefined;
  private readonly tokens = new Map<string, { hostname: string; action: string; used: boolean; issuedAt: Date }>();
  private server: Server | undefined;
  private readonly enforceSingleUse: boolean;

  constructor(private readonly options: FakeTurnstileOptions) {
    this.enforceSingleUse = options.enforceSingleUse ?? true;
  }

  /** Starts listening on 127.0.0.1 and returns the siteverify URL. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(async ({ status, body }) => {
        if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/turnstile/v0/siteverify`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A token as the widget would produce after a solve on `hostname`. */
  issueToken(hostname: string, action = ''): string {
    const token = `0.${randomBytes(48).toString('base64url')}`;
    this.tokens.set(token, { hostname, action, used: false, issuedAt: new Date() });
    return token;
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body?: unknown }> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = Object.fromEntries(new URLSearchParams(raw));
    this.calls.push({ contentType: req.headers['content-type'], form });
    if (this.failStatus !== undefined) return { status: this.failStatus };
    if (req.method !== 'POST') return { status: 405 };
    if (!form.secret) return { status: 200, body: { success: false, 'error-codes': ['missing-input-secret'] } };
    if (form.secret !== this.options.secret) return { status: 200, body: { success: false, 'error-codes': ['invalid-input-secret'] } };
    if (!form.response) return { status: 200, body: { success: false, 'error-codes': ['missing-input-response'] } };
    const token = this.tokens.get(form.response);
    if (!token) return { status: 200, body: { success: false, 'error-codes': ['invalid-input-response'] } };
    if (token.used && this.enforceSingleUse) return { status: 200, body: { success: false, 'error-codes': ['timeout-or-duplicate'] } };
    token.used = true;
    return {
      status: 200,
      body: { success: true, challenge_ts: token.issuedAt.toISOString(), hostname: token.hostname, 'error-codes': [], action: token.action, cdata: '' },
    };
  }
}
