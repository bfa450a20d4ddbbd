import type { Fail, Ok } from '../errors/result.js';
import type { Tier } from './account-store.port.js';

/** The plans a checkout can sell (`free` needs none). */
export type PaidPlan = Exclude<Tier, 'free'>;

/** What `POST /billing/checkout` asks the payment provider for. */
export interface CheckoutRequest {
  readonly orgId: string;
  /** The organisation's stored provider customer id; absent on its first checkout. */
  readonly customerId?: string | null;
  readonly plan: PaidPlan;
  readonly successUrl: string;
  readonly cancelUrl: string;
  /** One per API request (e.g. derived from the request id), so a retried request creates one session. */
  readonly idempotencyKey: string;
  /** Prefills the customer's e-mail on its creation. */
  readonly email?: string;
}

/** A hosted checkout page to redirect to, and the customer it belongs to (store it on the organisation). */
export interface CheckoutSession {
  readonly id: string;
  readonly url: string;
  readonly customerId: string;
}

/** A verified provider event that changes an organisation's tier. */
export interface PlanChangedEvent {
  readonly kind: 'plan_changed';
  /** Provider event id: apply each once (the webhook is delivered at least once). */
  readonly eventId: string;
  readonly type: string;
  /** From the checkout / subscription metadata; null when absent, then find the organisation by `customerId`. */
  readonly orgId: string | null;
  readonly customerId: string | null;
  readonly subscriptionId: string | null;
  readonly tier: Tier;
  /** When the provider created the event: events may arrive out of order, so skip one older than the last applied. */
  readonly occurredAt: Date;
}

/** A verified event that needs no action (another type, an unpaid checkout, an unknown price). */
export interface IgnoredBillingEvent {
  readonly kind: 'ignored';
  readonly eventId: string;
  readonly type: string;
  readonly reason: string;
}

/** Outcome of `parseWebhook`: a bad signature or body is an expected refusal (400), not a throw. */
export type BillingWebhookOutcome = Ok<PlanChangedEvent | IgnoredBillingEvent> | Fail<'invalid_request'>;

/** Checkout and webhook verification of a payment provider (Stripe). */
export interface BillingPort {
  /** Creates the organisation's customer when it has none, then a subscription checkout session for `plan`. */
  createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession>;
  /** A session of the provider's hosted customer portal (invoices, payment method, cancel), returning to `returnUrl`. */
  createPortalSession(request: { readonly customerId: string; readonly returnUrl: string }): Promise<{ readonly url: string }>;
  /** Verifies the signature over the exact raw body and maps the event to a domain event. */
  parseWebhook(rawBody: string | Uint8Array, signatureHeader: string | undefined): Promise<BillingWebhookOutcome>;
  /**
   * Deletes the organisation's customer at the provider, which ends its subscriptions at once (no further invoices)
   * and removes its payment methods; a customer already gone counts as deleted (DELETE /org, retried).
   */
  deleteCustomer(customerId: string): Promise<void>;
}
