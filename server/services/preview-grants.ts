import { createHmac, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { KeyStorePort } from '../../core/ports/key-store.port.js';
import { keyStatus } from '../../core/ports/key-store.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import { originAllowed } from '../keys/origin-policy.js';
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

  /**
   * A grant to preview unsaved settings on the owner's own site (docs/console.md, "On your own site"): `url` must be
   * an http(s) page whose origin the key allows. The token carries the draft and is signed, so the SDK on that page
   * (which finds it in the URL fragment `#kit-preview=…`) can send it with `/config` and the server can trust the
   * draft without storing it. It changes `/config` for that key, from that origin, for 15 minutes, and nothing else.
   */
  async issueForSite(auth: MemberAuth, keyId: string, url: string, assistant: Record<string, unknown>): Promise<ServiceResult<{ token: string; expiresAt: Date; url: string }>> {
    const now = this.clock();
    const key = await this.keys.find(auth.orgId, keyId);
    if (!key || keyStatus(key, now) === 'revoked') return refuse('not_found', 'No such key.');
    if (key.kind !== 'publishable') return refuse('invalid_request', 'id: only publishable keys run in a browser preview');
    const page = URL.canParse(url) ? new URL(url) : null;
    if (!page || (page.protocol !== 'http:' && page.protocol !== 'https:')) return refuse('invalid_request', 'url: must be an http: or https: address of a page of your site');
    if (!originAllowed(key.allowedOrigins, page.origin)) {
      const allowed = key.allowedOrigins.length === 0 ? 'it allows only loopback origins (localhost)' : `it allows ${key.allowedOrigins.join(', ')}`;
      return refuse('invalid_request', `url: ${page.origin} is not an allowed origin of this key (${allowed}); add it to the key's allowed origins first`);
    }
    const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + PREVIEW_GRANT_SECONDS * 1000);
    const payload = Buffer.from(JSON.stringify({ k: key.id, o: page.origin, e: expiresAt.getTime() / 1000, a: assistant })).toString('base64url');
    const token = `kpo.${payload}.${this.#sign(`site\0${payload}`)}`;
    page.hash = `kit-preview=${token}`;
    return ok({ token, expiresAt, url: page.href });
  }

  /** The draft settings of a live site-preview grant for `keyId` sent from `origin`, or null. */
  siteDraft(token: string, keyId: string, origin: string): Record<string, unknown> | null {
    const match = /^kpo\.([A-Za-z0-9_-]{1,20000})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return null;
    const expected = Buffer.from(this.#sign(`site\0${match[1]}`));
    const given = Buffer.from(match[2]!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const grant = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) as { k: string; o: string; e: number; a: Record<string, unknown> };
    if (grant.k !== keyId || grant.o !== origin || grant.e * 1000 <= this.clock().getTime()) return null;
    return grant.a;
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
