/** What deleting an organisation did. */
export type OrgDeletion =
  | {
      readonly outcome: 'deleted';
      /** Hashes of the organisation's keys (so in-process key caches can drop them at once). */
      readonly keyHashes: readonly string[];
      /** Accounts deleted with it: members who belonged to no other organisation. */
      readonly usersDeleted: number;
    }
  | { readonly outcome: 'not_found' }
  /** The organisation was renamed since the caller confirmed its name: nothing was deleted. */
  | { readonly outcome: 'name_changed' };

/** Deletes an organisation and everything stored for it, in one transaction. */
export interface OrgDeletionPort {
  deleteOrganization(orgId: string, confirmedName: string): Promise<OrgDeletion>;
}
