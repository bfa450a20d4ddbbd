import type { Role } from '../../core/ports/account-store.port.js';

/** What each role may do (CONTRACT §2). Routes name a permission; the role is read from the database per request. */
export const PERMISSIONS = Object.freeze({
  'keys:read': ['owner', 'admin', 'developer'],
  'keys:write': ['owner', 'admin', 'developer'],
  'usage:read': ['owner', 'admin', 'developer', 'viewer'],
  'org:read': ['owner', 'admin', 'developer', 'viewer'],
  'org:manage': ['owner', 'admin'],
  'billing:manage': ['owner', 'admin'],
  // Issue 13: assistant settings, the question log and the organisation's data.
  'assistant:read': ['owner', 'admin', 'developer', 'viewer'],
  'assistant:write': ['owner', 'admin', 'developer'],
  'insights:read': ['owner', 'admin', 'developer', 'viewer'],
  'insights:delete': ['owner', 'admin', 'developer'],
  'privacy:manage': ['owner', 'admin'],
  'org:export': ['owner', 'admin'],
} as const satisfies Record<string, readonly Role[]>);

export type Permission = keyof typeof PERMISSIONS;

/** True when `role` holds `permission`. */
export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}
