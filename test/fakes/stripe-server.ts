import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One API request the fake received: the form body flattened as Stripe encodes it (`line_items[0][price]`). */
export interface StripeCall {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly form: Record<string, string>;
}

/**
 * A loopback stand-in for api.stripe.com, for the endpoints Kit uses (POST /v1/customers,
 * POST /v1/checkout/sessions, DELETE /v1/customers/{id}). It checks the secret key like Stripe (401 otherwise), replays the stored response for
 * a repeated Idempotency-Key like Stripe, and records every request. Stripe's real servers are not reachable here.
 */
export class FakeStripeServer {
  readonly calls: StripeCall[] = [];
  /** When set, every API call answers this status with a Stripe error body. */
  failStatus: number | undefined;
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  /** Customers deleted through DELETE /v1/customers/{id}. */
  readonly deleted = new Set<string>();
  private counter = 0;
  private server: Server | undefined;

  constructor(private readonly secretKey: string) {}

  /** Listens on 127.0.0.1 and returns the stripe-node settings that point at it. */
  async start(): Promise<{ host: string; port: number; protocol: 'http' }> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        const { status, body } = this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, raw);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.counter}` });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return { host: '127.0.0.1', port: (this.server.address() as AddressInfo).port, protocol: 'http' };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(method: string, url: string, headers: IncomingHttpHeaders, raw: string): { status: number; body: unknown } {
    const path = url.split('?')[0] ?? url;
    const form = Object.fromEntries(new URLSearchParams(raw));
    this.calls.push({ method, path, headers, form });
    if (headers.authorization !== `Bearer ${this.secretKey}`) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } } };
    }
    if (this.failStatus !== undefined) return { status: this.failStatus, body: { error: { type: 'api_error', message: 'Something went wrong.' } } };
    const key = headers['idempotency-key'];
    const replay = typeof key === 'string' ? this.idempotent.get(`${path}:${key}`) : undefined;
    if (replay) return replay;
    const result = this.create(method, path, form);
    if (typeof key === 'string') this.idempotent.set(`${path}:${key}`, result);
    return result;
  }

  private create(method: string, path: string, form: Record<string, string>): { status: number; body: unknown } {
    const n = ++this.counter;
    if (method === 'POST' && path === '/v1/customers') {
      const metadata = pick(form, 'metadata');
      return { status: 200, body: { id: `cus_test${n}`, object: 'customer', email: form.email ?? null, metadata, livemode: false } };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (!form.customer || !form['line_items[0][price]'] || !form.success_url || !form.cancel_url) {
        return { status: 400, body: { error: { type: 'invalid_request_error', message: 'Missing required param.' } } };
      }
      const id = `cs_test_${n}`;
      return {
        status: 200,
        body: {
          id,
          object: 'checkout.session',
          mode: form.mode,
          customer: form.customer,
          client_reference_id: form.client_reference_id ?? null,
          metadata: pick(form, 'metadata'),
          success_url: form.success_url,
          cancel_url: form.cancel_url,
          url: `https://checkout.stripe.com/c/pay/${id}`,
          status: 'open',
          payment_status: 'unpaid',
          livemode: false,
        },
      };
    }
    const customer = /^\/v1\/customers\/([A-Za-z0-9_]+)$/.exec(path);
    if (method === 'DELETE' && customer) {
      // Like Stripe: a customer deleted once (or never created here) is `resource_missing`.
      if (!customer[1]!.startsWith('cus_') || this.deleted.has(customer[1]!)) {
        return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such customer: '${customer[1]}'` } } };
      }
      this.deleted.add(customer[1]!);
      return { status: 200, body: { id: customer[1], object: 'customer', deleted: true } };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } } };
  }
}

function pick(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(k);
    if (m?.[1]) out[m[1]] = v;
  }
  return out;
}
