/** One record of an organisation's data export: `type` names what it is; the rest is that record in snake_case. */
export type ExportRecord = { readonly type: string } & Readonly<Record<string, unknown>>;

/** Reads everything Kit stores about an organisation (never password hashes or key hashes). */
export interface OrgExportPort {
  records(orgId: string): AsyncIterable<ExportRecord>;
}
