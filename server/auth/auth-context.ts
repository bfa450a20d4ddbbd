import type { KeyKind } from '../../core/keys/key-format.js';
import type { Role, Tier } from '../../core/ports/account-store.port.js';
import type { Permission } from './permissions.js';

/** Who may call a route. */
export type AuthRequirement =
  | { readonly kind: 'none' }
  /** A dashboard JWT whose member (role read from the database) holds `permission`. */
  | { readonly kind: 'jwt'; readonly permission: Permission }
  /** An API key of one of `kinds`; publishable keys must allow the `Origin`, secret keys the caller's IP. */
  | { readonly kind: 'key'; readonly kinds: readonly KeyKind[] };

/** A signed-in member of an organisation, as checked against the database for this request. */
export interface MemberAuth {
  readonly kind: 'member';
  readonly userId: string;
  readonly orgId: string;
  readonly role: Role;
}

/** A verified API key. */
export interface KeyAuth {
  readonly kind: 'key';
  readonly keyId: string;
  readonly keyKind: KeyKind;
  readonly orgId: string;
  readonly orgTier: Tier;
  readonly allowedOrigins: readonly string[];
  readonly ipAllowlist: readonly string[];
}

/** The handler-side auth value for a requirement. */
export type AuthFor<A extends AuthRequirement> = A extends { kind: 'jwt' } ? MemberAuth : A extends { kind: 'key' } ? KeyAuth : null;
