import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** One API request the fake received: the form body flattened as Stripe encodes it (`line_items[0][price]`). */
export interface StripeCall {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly form: Record<string, string>;
}

/** Hosted pages: where the fake sends the webhooks its pages cause, signed with this secret. */
export interface HostedPagesOptions {
  readonly webhookUrl: () => string;
  readonly webhookSecret: string;
}

/**
 * A loopback stand-in for api.stripe.com, for the endpoints Kit uses (POST /v1/customers, /v1/checkout/sessions,
 * /v1/billing_portal/sessions, DELETE /v1/customers/{id}). It checks the secret key like Stripe (401 otherwise), replays the stored response for
 * a repeated Idempotency-Key like Stripe, and records every request. Stripe's real servers are not reachable here.
 * With `hostedPages`, the Checkout and portal URLs it returns are its own pages (a browser can open them): paying
 * on the checkout page, or cancelling on the portal page, sends the signed webhook Stripe would send, then
 * redirects back like Stripe does.
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

  private readonly sessions = new Map<string, Record<string, unknown>>();
  /** Ids differ between fakes: suites sharing one database must not get each other's customer ids. */
  private readonly tag = Math.random().toString(36).slice(2, 8);
  private origin = '';

  constructor(
    private readonly secretKey: string,
    private readonly hostedPages?: HostedPagesOptions,
  ) {}

  /** Listens on 127.0.0.1 and returns the stripe-node settings that point at it. */
  async start(): Promise<{ host: string; port: number; protocol: 'http' }> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        if (this.hostedPages && /^\/(c\/pay|p\/session)\//.test(req.url ?? '')) {
          void this.page(req.method ?? 'GET', req.url ?? '/', res);
          return;
        }
        const { status, body } = this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, raw);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.counter}` });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const port = (this.server.address() as AddressInfo).port;
    this.origin = `http://127.0.0.1:${port}`;
    return { host: '127.0.0.1', port, protocol: 'http' };
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
    const result = this.remember(this.create(method, path, form));
    if (typeof key === 'string') this.idempotent.set(`${path}:${key}`, result);
    return result;
  }

  private create(method: string, path: string, form: Record<string, string>): { status: number; body: unknown } {
    const n = ++this.counter;
    if (method === 'POST' && path === '/v1/customers') {
      const metadata = pick(form, 'metadata');
      if (metadata.org_id) this.customers.set(`cus_test${this.tag}${n}`, metadata.org_id);
      return { status: 200, body: { id: `cus_test${this.tag}${n}`, object: 'customer', email: form.email ?? null, metadata, livemode: false } };
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
          url: this.hostedPages ? `${this.origin}/c/pay/${id}` : `https://checkout.stripe.com/c/pay/${id}`,
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
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!form.customer || !form.return_url) return { status: 400, body: { error: { type: 'invalid_request_error', message: 'Missing required param.' } } };
      const id = `bps_test_${n}`;
      this.sessions.set(id, { customer: form.customer, return_url: form.return_url });
      return { status: 200, body: { id, object: 'billing_portal.session', customer: form.customer, return_url: form.return_url, url: this.hostedPages ? `${this.origin}/p/session/${id}` : `https://billing.stripe.com/p/session/${id}`, livemode: false } };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  private remember(result: { status: number; body: unknown }): { status: number; body: unknown } {
    const body = result.body as { id?: string; object?: string };
    if (body.object === 'checkout.session' && body.id) this.sessions.set(body.id, body as Record<string, unknown>);
    return result;
  }

  /** The hosted Checkout and portal pages (a button, then the webhook and the redirect). */
  private async page(method: string, url: string, res: ServerResponse): Promise<void> {
    const id = url.split('/').pop()!.split('?')[0]!;
    const session = this.sessions.get(id);
    const checkout = url.startsWith('/c/pay/');
    if (!session) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('No such session.');
      return;
    }
    if (method === 'GET') {
      const title = checkout ? `Pay for Kit ${(session.metadata as Record<string, string>).plan}` : 'Kit billing portal';
      const action = checkout ? 'Pay' : 'Cancel plan';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1><p>Loopback Stripe stand-in (tests).</p><form method="post"><button type="submit">${action}</button></form></main></body></html>`);
      return;
    }
    const created = Math.floor(Date.now() / 1000);
    const metadata = (session.metadata as Record<string, string> | undefined) ?? {};
    const orgId = metadata.org_id ?? this.orgOfCustomer(String(session.customer));
    const event = checkout
      ? { id: `evt_${id}`, object: 'event', created, type: 'checkout.session.completed', data: { object: { ...session, status: 'complete', payment_status: 'paid', subscription: `sub_${session.customer}` } } }
      : {
          id: `evt_${id}`,
          object: 'event',
          created,
          type: 'customer.subscription.deleted',
          data: { object: { id: `sub_${session.customer}`, object: 'subscription', customer: session.customer, status: 'canceled', metadata: orgId ? { org_id: orgId } : {}, items: { object: 'list', data: [] } } },
        };
    const payload = JSON.stringify(event);
    const signature = new Stripe(this.secretKey).webhooks.generateTestHeaderString({ payload, secret: this.hostedPages!.webhookSecret });
    const delivered = await fetch(this.hostedPages!.webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    this.webhooks.push({ type: event.type, status: delivered.status });
    res.writeHead(303, { location: checkout ? String(session.success_url) : String(session.return_url) });
    res.end();
  }

  /** Webhooks the hosted pages delivered, with the status Kit answered. */
  readonly webhooks: { type: string; status: number }[] = [];

  private orgOfCustomer(customer: string): string | undefined {
    return this.customers.get(customer);
  }

  private readonly customers = new Map<string, string>();
}

function pick(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(k);
    if (m?.[1]) out[m[1]] = v;
  }
  return out;
}
