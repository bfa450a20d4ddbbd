import { SignJWT, jwtVerify } from 'jose';
import { fail, ok } from '../../core/errors/index.js';
import { ROLES, type Role } from '../../core/ports/account-store.port.js';
import type { AccessTokenPort } from '../../core/ports/access-token.port.js';

/** Options of the dashboard JWTs. */
export interface JoseAccessTokenOptions {
  /** HS256 key; at least 32 bytes. */
  readonly secret: Uint8Array;
  /** `iss`; default 'kit'. */
  readonly issuer?: string;
  /** `aud`; default 'kit-platform'. */
  readonly audience?: string;
  /** Lifetime in seconds; default 3600 (CONTRACT §1). */
  readonly ttlSeconds?: number;
}

const ALGORITHM = 'HS256';

/** HS256 JWTs through jose, with the algorithm pinned and iss, aud and exp checked. */
export function createJoseAccessTokens(options: JoseAccessTokenOptions): AccessTokenPort {
  if (options.secret.length < 32) throw new RangeError('the JWT secret must be at least 32 bytes');
  const secret = options.secret;
  const issuer = options.issuer ?? 'kit';
  const audience = options.audience ?? 'kit-platform';
  const ttl = options.ttlSeconds ?? 3600;

  return {
    async issue(claims, now) {
      const iat = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({ org: claims.orgId, role: claims.role })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl)
        .sign(secret);
      return { token, expiresAt: new Date((iat + ttl) * 1000) };
    },

    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: [ALGORITHM],
          issuer,
          audience,
          currentDate: now,
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        const { sub, org, role } = payload as { sub?: unknown; org?: unknown; role?: unknown };
        if (typeof sub !== 'string' || typeof org !== 'string' || !ROLES.includes(role as Role)) return fail('invalid_token', 'claims');
        return ok({ userId: sub, orgId: org, role: role as Role });
      } catch {
        return fail('invalid_token', 'rejected');
      }
    },
  };
}
