import { inject, injectable } from 'inversify';
import type { Logger } from 'pino';
import type { BillingStore } from '../../adapters/node/pg-billing-store.js';
import type { AccountStorePort } from '../../core/ports/account-store.port.js';
import type { BillingPort } from '../../core/ports/billing.port.js';
import type { OrgDeletionPort } from '../../core/ports/org-deletion.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import { TOKENS } from '../tokens.js';
import type { KeyVerifier } from './key-verifier.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/**
 * `DELETE /org` (issue 13 §4): an owner deletes the organisation and everything Kit stores for it, confirming with its
 * exact name. A Stripe customer is deleted first (which ends its subscription at once), so an organisation is never
 * gone while still being billed; when Stripe fails, nothing is deleted and the owner can retry.
 */
@injectable()
export class OrgDeletionService {
  constructor(
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStorePort,
    @inject(TOKENS.BillingStore) private readonly billingStore: BillingStore,
    @inject(TOKENS.Billing) private readonly billing: BillingPort | null,
    @inject(TOKENS.OrgDeletion) private readonly store: OrgDeletionPort,
    @inject(TOKENS.KeyVerifier) private readonly keys: KeyVerifier,
  ) {}

  async delete(auth: MemberAuth, confirmName: string): Promise<ServiceResult<void>> {
    const org = await this.accounts.findOrganization(auth.orgId);
    if (!org) return refuse('not_found', 'No such organization.');
    if (confirmName !== org.name) return refuse('invalid_request', 'confirm_name: must be the organization\'s current name, exactly as GET /org shows it.');
    const customerId = await this.billingStore.customerOf(auth.orgId);
    if (customerId !== null) {
      if (!this.billing) return refuse('billing_unavailable', 'This organization has a Stripe customer, and billing is not configured on this server to cancel its subscription; nothing was deleted.');
      await this.billing.deleteCustomer(customerId);
    }
    const deleted = await this.store.deleteOrganization(auth.orgId, confirmName);
    if (deleted.outcome === 'not_found') return refuse('not_found', 'No such organization.');
    if (deleted.outcome === 'name_changed') return refuse('conflict', 'The organization was renamed meanwhile; nothing was deleted. Confirm with its new name.');
    for (const hash of deleted.keyHashes) this.keys.evict(hash);
    this.logger.info({ org_id: auth.orgId, user_id: auth.userId, keys: deleted.keyHashes.length, users_deleted: deleted.usersDeleted, stripe_customer_deleted: customerId !== null }, 'organization deleted');
    return ok(undefined);
  }
}
