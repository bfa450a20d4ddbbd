import { z } from 'zod';
import { keyStatus, type ApiKeyRecord } from '../../core/ports/key-store.port.js';
import type { MemberRecord, OrganizationRecord, UserRecord } from '../../core/ports/account-store.port.js';
import { Timestamp } from './schemas.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const RoleSchema = z.enum(['owner', 'admin', 'developer', 'viewer']).meta({ id: 'Role' });
export const TierSchema = z.enum(['free', 'pro', 'business']).meta({ id: 'Tier' });

export const UserView = z
  .strictObject({ id: z.string(), email: z.string(), name: z.string().nullable(), created_at: Timestamp })
  .meta({ id: 'User' });

export const OrganizationView = z
  .strictObject({ id: z.string(), name: z.string(), tier: TierSchema, created_at: Timestamp, member_count: z.number().int() })
  .meta({ id: 'Organization' });

export const MemberView = z
  .strictObject({ user_id: z.string(), email: z.string(), name: z.string().nullable(), role: RoleSchema, joined_at: Timestamp })
  .meta({ id: 'Member' });

export const KeyView = z
  .strictObject({
    id: z.string(),
    kind: z.enum(['publishable', 'secret']),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first 12 characters, for display.' }),
    last4: z.string(),
    value: z.string().optional().meta({ description: 'The full key; publishable keys only (they are public).' }),
    allowed_origins: z.array(z.string()),
    ip_allowlist: z.array(z.string()),
    status: z.enum(['active', 'expiring', 'revoked']),
    created_at: Timestamp,
    created_by: z.string().nullable(),
    last_used_at: Timestamp.nullable().meta({ description: 'The last request the key was admitted for (a refused origin or address, or the console\'s preview, does not count). Updated at most every 30 s (KIT_LAST_USED_FLUSH_MS).' }),
    expires_at: Timestamp.nullable(),
  })
  .meta({ id: 'Key' });

export function userView(u: Pick<UserRecord, 'id' | 'email' | 'name' | 'createdAt'>): z.infer<typeof UserView> {
  return { id: u.id, email: u.email, name: u.name, created_at: u.createdAt.toISOString() };
}

export function organizationView(o: OrganizationRecord & { readonly memberCount: number }): z.infer<typeof OrganizationView> {
  return { id: o.id, name: o.name, tier: o.tier, created_at: o.createdAt.toISOString(), member_count: o.memberCount };
}

export function memberView(m: MemberRecord): z.infer<typeof MemberView> {
  return { user_id: m.userId, email: m.email, name: m.name, role: m.role, joined_at: m.joinedAt.toISOString() };
}

export function keyView(k: ApiKeyRecord, now: Date): z.infer<typeof KeyView> {
  return {
    id: k.id,
    kind: k.kind,
    name: k.name,
    prefix: k.prefix,
    last4: k.last4,
    ...(k.kind === 'publishable' && k.value ? { value: k.value } : {}),
    allowed_origins: [...k.allowedOrigins],
    ip_allowlist: [...k.ipAllowlist],
    status: keyStatus(k, now),
    created_at: k.createdAt.toISOString(),
    created_by: k.createdBy,
    last_used_at: iso(k.lastUsedAt),
    expires_at: iso(k.expiresAt),
  };
}
