import { createHmac, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { KeyStorePort } from '../../core/ports/key-store.port.js';
import { keyStatus } from '../../core/ports/key-store.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import { TOKENS, type Clock, type PlatformSecrets } from '../tokens.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/** How long a preview grant lasts: long enough to edit settings, short enough to be useless when leaked. */
export const PREVIEW_GRANT_SECONDS = 900;

/**
 * Grants for the console's live preview (docs/console.md). The preview page runs on Kit's own origin, which a key
 * restricted to the owner's site does not allow; a member who may read the key gets a signed grant, valid 15 minutes
 * for that key only, and the preview sends it as `Kit-Preview`. The authenticator then accepts that key from Kit's
 * own origin (never from another one), so a leaked grant does not open the key to other sites.
 */
@injectable()
export class PreviewGrants {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.KeyStore) private readonly keys: KeyStorePort,
    @inject(TOKENS.PlatformSecrets) private readonly secrets: PlatformSecrets,
  ) {}

  async issue(auth: MemberAuth, keyId: string): Promise<ServiceResult<{ token: string; expiresAt: Date }>> {
    const now = this.clock();
    const key = await this.keys.find(auth.orgId, keyId);
    if (!key || keyStatus(key, now) === 'revoked') return refuse('not_found', 'No such key.');
    if (key.kind !== 'publishable') return refuse('invalid_request', 'id: only publishable keys run in a browser preview');
    const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + PREVIEW_GRANT_SECONDS * 1000);
    const payload = `${key.id}.${expiresAt.getTime() / 1000}`;
    return ok({ token: `kpv.${payload}.${this.#sign(payload)}`, expiresAt });
  }

  /** True when `token` is a live grant for `keyId`. */
  verify(token: string, keyId: string): boolean {
    const match = /^kpv\.(key_[0-9A-Za-z]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match || match[1] !== keyId || Number(match[2]) * 1000 <= this.clock().getTime()) return false;
    const expected = Buffer.from(this.#sign(`${match[1]}.${match[2]}`));
    const given = Buffer.from(match[3]!);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #sign(payload: string): string {
    return createHmac('sha256', this.secrets.sessionSecret).update(`preview\0${payload}`).digest('base64url');
  }
}
