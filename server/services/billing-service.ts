import { inject, injectable } from 'inversify';
import type { Logger } from 'pino';
import type { BillingEventOutcome, BillingStore } from '../../adapters/node/pg-billing-store.js';
import type { AccountStorePort } from '../../core/ports/account-store.port.js';
import type { BillingPort, CheckoutSession, PaidPlan } from '../../core/ports/billing.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import { sha256Hex } from '../ids.js';
import { TOKENS, type Clock } from '../tokens.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

const NOT_CONFIGURED = 'Billing is not configured on this server (STRIPE_SECRET_KEY and friends are unset).';

/**
 * Stripe billing (CONTRACT §3, docs/billing.md): checkout for owners and admins with one Stripe customer per
 * organisation, and webhook events applied to the organisation's tier once per event id, never older over newer.
 */
@injectable()
export class BillingService {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Billing) private readonly billing: BillingPort | null,
    @inject(TOKENS.BillingStore) private readonly store: BillingStore,
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStorePort,
  ) {}

  /**
   * A Checkout Session for `plan`. The Stripe idempotency key is the caller's `Idempotency-Key` header when given
   * (so a client retry gets the same session), else this request's id; either way scoped to the organisation.
   */
  async checkout(auth: MemberAuth, input: { plan: PaidPlan; successUrl: string; cancelUrl: string; idempotencyKey: string }): Promise<ServiceResult<CheckoutSession>> {
    if (!this.billing) return refuse('billing_unavailable', NOT_CONFIGURED);
    const [customerId, member] = await Promise.all([this.store.customerOf(auth.orgId), this.accounts.findMember(auth.orgId, auth.userId)]);
    const session = await this.billing.createCheckoutSession({
      orgId: auth.orgId,
      customerId,
      plan: input.plan,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      // Hashed: the header is the client's text, and Stripe limits keys to 255 characters.
      idempotencyKey: `kit-checkout-${auth.orgId}-${sha256Hex(`${input.idempotencyKey}|${input.plan}|${input.successUrl}|${input.cancelUrl}`).slice(0, 32)}`,
      ...(member ? { email: member.email } : {}),
    });
    if (customerId === null) await this.store.saveCustomer(auth.orgId, session.customerId);
    return ok(session);
  }

  /** A Stripe customer-portal session for the organisation (issue 14); `conflict` before its first checkout. */
  async portal(auth: MemberAuth, returnUrl: string): Promise<ServiceResult<{ url: string }>> {
    if (!this.billing) return refuse('billing_unavailable', NOT_CONFIGURED);
    const customerId = await this.store.customerOf(auth.orgId);
    if (customerId === null) return refuse('conflict', 'This organization has no billing account yet: choose a paid plan first.');
    return ok(await this.billing.createPortalSession({ customerId, returnUrl }));
  }

  /** Verifies and applies one webhook delivery. */
  async webhook(rawBody: Uint8Array, signature: string | undefined): Promise<ServiceResult<{ eventId: string; outcome: BillingEventOutcome }>> {
    if (!this.billing) return refuse('billing_unavailable', NOT_CONFIGURED);
    const parsed = await this.billing.parseWebhook(rawBody, signature);
    if (!parsed.ok) return refuse('invalid_request', parsed.reason);
    const event = parsed.value;
    const now = this.clock();
    const outcome = event.kind === 'ignored' ? await this.store.recordIgnored(event.eventId, event.type, now) : await this.store.applyPlanChange(event, now);
    this.logger.info({ event_id: event.eventId, type: event.type, outcome, ...(event.kind === 'plan_changed' ? { tier: event.tier } : {}) }, 'billing event');
    return ok({ eventId: event.eventId, outcome });
  }
}
