import { z } from 'zod';
import type { BillingService } from '../services/billing-service.js';
import { unwrap } from '../services/service-result.js';
import { defineRoute, type Route } from '../http/route.js';
import { HttpUrl } from '../http/schemas.js';

/** Where Stripe sends the owner back. */
const RedirectUrl = HttpUrl;

/** Largest webhook body; Stripe events are a few KiB. */
const WEBHOOK_BODY_LIMIT_BYTES = 512 * 1024;

/** POST /billing/checkout and POST /billing/webhook. */
export function billingRoutes(billing: BillingService): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/billing/checkout',
      operationId: 'createCheckoutSession',
      summary: 'Start a Stripe Checkout for a paid plan',
      description:
        'Owners and admins. Creates the organization\'s Stripe customer on its first checkout (one per organization), then a subscription Checkout Session; redirect the browser to `url`. Send an `Idempotency-Key` header to make retries return the same session. `billing_unavailable` when the server has no Stripe configuration.',
      tags: ['Billing'],
      auth: { kind: 'jwt', permission: 'billing:manage' },
      body: z.strictObject({ plan: z.enum(['pro', 'business']), success_url: RedirectUrl, cancel_url: RedirectUrl }),
      responses: { 201: { description: 'The Checkout Session.', schema: z.strictObject({ id: z.string(), url: z.string() }).meta({ id: 'CheckoutSession' }) } },
      errors: ['billing_unavailable'],
      async handler({ auth, body, ctx, requestId }) {
        const key = ctx.get('idempotency-key').slice(0, 255) || requestId;
        const session = unwrap(await billing.checkout(auth, { plan: body.plan, successUrl: body.success_url, cancelUrl: body.cancel_url, idempotencyKey: key }));
        return { status: 201, body: { id: session.id, url: session.url } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/billing/portal',
      operationId: 'createPortalSession',
      summary: 'Open the Stripe customer portal',
      description:
        "Owners and admins. A Stripe customer-portal session (invoices, payment method, change or cancel the plan) that returns to `return_url`; redirect the browser to `url`. `409 conflict` before the organization's first checkout (it has no Stripe customer yet). Plan changes made there reach Kit by the webhook.",
      tags: ['Billing'],
      auth: { kind: 'jwt', permission: 'billing:manage' },
      body: z.strictObject({ return_url: RedirectUrl }),
      responses: { 201: { description: 'The portal session.', schema: z.strictObject({ url: z.string() }).meta({ id: 'PortalSession' }) } },
      errors: ['billing_unavailable', 'conflict'],
      async handler({ auth, body }) {
        const session = unwrap(await billing.portal(auth, body.return_url));
        return { status: 201, body: { url: session.url } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/billing/webhook',
      operationId: 'stripeWebhook',
      summary: 'Stripe webhook endpoint',
      description:
        'Verifies `Stripe-Signature` over the raw body and applies `checkout.session.completed` and `customer.subscription.updated` / `.deleted` to the organization\'s tier, once per event id (a redelivery answers 200 and changes nothing; an event older than the last applied change is skipped). Other event types answer 200. A bad signature is `400 invalid_request`.',
      tags: ['Billing'],
      auth: { kind: 'none' },
      body: z.looseObject({ id: z.string(), type: z.string() }).meta({ description: 'A Stripe event, exactly as Stripe sent it.' }),
      bodyLimitBytes: WEBHOOK_BODY_LIMIT_BYTES,
      responses: {
        200: {
          description: 'Received.',
          schema: z.strictObject({
            received: z.literal(true),
            event_id: z.string(),
            outcome: z.enum(['applied', 'duplicate', 'stale', 'unknown_org', 'ignored']),
          }),
        },
      },
      errors: ['billing_unavailable'],
      async handler({ ctx }) {
        const raw = ctx.state.rawBody as Buffer;
        const result = unwrap(await billing.webhook(raw, ctx.get('stripe-signature') || undefined));
        return { status: 200, body: { received: true as const, event_id: result.eventId, outcome: result.outcome } };
      },
    }),
  ];
}
