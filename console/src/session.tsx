import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Schemas } from './api/client.js';

export type ConsoleSession = Schemas['ConsoleSession'];
export type Role = Schemas['Role'];

/** The signed-in state every view of the signed-in console shares (the one piece of shared state). */
export interface SessionContextValue {
  readonly session: ConsoleSession;
  /** Replaces the session after a switch, a rename, a role change of one's own. */
  update(session: ConsoleSession): void;
  /** Re-reads GET /auth/session. */
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

/** The session of the signed-in console (views under the signed-in layout only). */
export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside the signed-in console');
  return value;
}

const RANK: Readonly<Record<Role, number>> = { owner: 4, admin: 3, developer: 2, viewer: 1 };

/** What a role may do, mirroring the server's table (docs/api.md): the UI hides what the server would refuse. */
export const may = {
  manageKeys: (r: Role) => RANK[r] >= RANK.developer,
  readKeys: (r: Role) => RANK[r] >= RANK.developer,
  manageMembers: (r: Role) => RANK[r] >= RANK.admin,
  manageBilling: (r: Role) => RANK[r] >= RANK.admin,
  renameOrg: (r: Role) => RANK[r] >= RANK.admin,
  editSettings: (r: Role) => RANK[r] >= RANK.developer,
  manageLogging: (r: Role) => RANK[r] >= RANK.admin,
};
