import { inject, injectable } from 'inversify';
import type { Context } from 'koa';
import { KitError } from '../../core/errors/index.js';
import type { AccessTokenPort } from '../../core/ports/access-token.port.js';
import type { AccountStorePort } from '../../core/ports/account-store.port.js';
import { ipAllowed } from '../keys/ip-allowlist.js';
import { originAllowed } from '../keys/origin-policy.js';
import type { BrowserSessionService } from '../services/browser-session-service.js';
import type { KeyVerifier } from '../services/key-verifier.js';
import type { PreviewGrants } from '../services/preview-grants.js';
import { TOKENS, type Clock } from '../tokens.js';
import type { AuthRequirement, KeyAuth, MemberAuth } from './auth-context.js';
import { can } from './permissions.js';
import { requireBrowserSession } from './browser-auth.js';
import { ownOrigin, readSessionCookie } from './session-cookie.js';

const KEY_LIKE = /^kit_/;

/** The bearer credential of a request, or null. A malformed Authorization header counts as none. */
export function bearerToken(ctx: Context): string | null {
  const header = ctx.get('authorization');
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * Resolves a request's credential against a route's requirement (CONTRACT §1, §2, §5):
 * no credential → unauthenticated; a malformed, unknown or revoked key → invalid_api_key; a bad, expired
 * or foreign JWT → unauthenticated; a valid credential of the wrong kind or a role without the permission
 * → forbidden. For JWTs the membership and role are read from the database on every request.
 * Member routes also take the console's session cookie when no Authorization header is sent (docs/console.md):
 * unsafe methods then need the session's CSRF token in X-CSRF-Token, and an Origin, when sent, must be this server's.
 */
@injectable()
export class Authenticator {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AccessTokens) private readonly tokens: AccessTokenPort,
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStorePort,
    @inject(TOKENS.KeyVerifier) private readonly keys: KeyVerifier,
    @inject(TOKENS.BrowserSessions) private readonly browserSessions: BrowserSessionService,
    @inject(TOKENS.PreviewGrants) private readonly previewGrants: PreviewGrants,
    @inject(TOKENS.Config) private readonly config: { readonly console: { readonly publicUrl: string | null } },
  ) {}

  async authenticate(requirement: AuthRequirement, ctx: Context): Promise<MemberAuth | KeyAuth | null> {
    if (requirement.kind === 'none') return null;
    const token = bearerToken(ctx);
    if (token === null && requirement.kind === 'jwt' && ctx.get('authorization') === '') {
      if (readSessionCookie(ctx) !== null) return this.#browser(ctx, requirement.permission);
    }
    if (token === null) throw new KitError('unauthenticated', 'Send a credential: Authorization: Bearer <token or key>.');
    if (requirement.kind === 'jwt') {
      if (KEY_LIKE.test(token)) {
        await this.#key(token);
        throw new KitError('forbidden', 'API keys cannot call this route; sign in and use the returned token.');
      }
      return this.#member(token, requirement.permission);
    }
    if (!KEY_LIKE.test(token)) {
      const claims = await this.tokens.verify(token, this.clock());
      if (claims.ok) throw new KitError('forbidden', 'This route takes an API key, not a dashboard token.');
      throw new KitError('invalid_api_key');
    }
    const key = await this.#key(token);
    if (!requirement.kinds.includes(key.keyKind)) throw new KitError('forbidden', `This route does not accept ${key.keyKind} keys.`);
    if (key.keyKind === 'publishable') {
      // Browsers always send Origin on cross-origin requests; a request without one is not a browser on another site.
      const origin = ctx.get('origin');
      const preview = ctx.get('kit-preview');
      // The console's live preview: Kit's own pages with a member's grant for this key (services/preview-grants.ts).
      if (preview !== '' && (origin === '' || origin === ownOrigin(ctx)) && this.previewGrants.verify(preview, key.keyId)) return key;
      if (origin !== '') {
        ctx.vary('Origin');
        if (!originAllowed(key.allowedOrigins, origin)) {
          // CORS answers echo only origins the key allows (CONTRACT §1), whatever KIT_CORS_ORIGINS says.
          ctx.remove('Access-Control-Allow-Origin');
          throw new KitError('origin_not_allowed');
        }
        ctx.set('Access-Control-Allow-Origin', origin);
      }
    } else if (!ipAllowed(key.ipAllowlist, ctx.ip)) {
      throw new KitError('ip_not_allowed');
    }
    this.keys.used(key.keyId);
    return key;
  }

  async #key(token: string): Promise<KeyAuth> {
    const verified = await this.keys.verify(token);
    if (!verified.ok) throw new KitError('invalid_api_key');
    const k = verified.value;
    return { kind: 'key', keyId: k.id, keyKind: k.kind, orgId: k.orgId, orgTier: k.orgTier, allowedOrigins: k.allowedOrigins, ipAllowlist: k.ipAllowlist };
  }

  async #browser(ctx: Context, permission: Parameters<typeof can>[1]): Promise<MemberAuth> {
    const session = await requireBrowserSession(ctx, this.browserSessions, this.config.console.publicUrl);
    const member = await this.accounts.findMember(session.orgId, session.userId);
    if (!member) throw new KitError('unauthenticated', 'This account is no longer a member of the organization; sign in again.');
    if (!can(member.role, permission)) throw new KitError('forbidden', `The ${member.role} role may not do this.`);
    return { kind: 'member', userId: member.userId, orgId: member.orgId, role: member.role };
  }

  async #member(token: string, permission: Parameters<typeof can>[1]): Promise<MemberAuth> {
    const claims = await this.tokens.verify(token, this.clock());
    if (!claims.ok) throw new KitError('unauthenticated', 'The token is invalid or expired; log in again.');
    const member = await this.accounts.findMember(claims.value.orgId, claims.value.userId);
    if (!member) throw new KitError('unauthenticated', 'This account is no longer a member of the organization; log in again.');
    if (!can(member.role, permission)) throw new KitError('forbidden', `The ${member.role} role may not do this.`);
    return { kind: 'member', userId: member.userId, orgId: member.orgId, role: member.role };
  }
}
