/**
 * Redaction of the pages read (issue 6 §4), in the redaction chunk (`kit-redaction`, with core/redaction): an
 * assistant without `redact` loads none of it (docs/sdk.md "Budgets").
 */
import type { RedactConfig } from '../core/config/index.js';
import { loadRedactor } from '../core/redaction/index.js';
import type { SourcePage } from '../core/sources.js';

/** What masks the pages read: every title and text, `pause` between pages (a site's slicing), counts by kind. */
export type PageRedactor = (pages: readonly SourcePage[], pause: (() => Promise<void>) | null) => Promise<{ pages: SourcePage[]; redacted: Partial<Record<string, number>> }>;

/** Loads the redactor (and its own chunks: phone metadata, custom patterns) while the page is being read. */
export async function loadPageRedactor(config: RedactConfig): Promise<PageRedactor> {
  const redactor = await loadRedactor(config);
  return (pages, pause) => redactPages(redactor, pages, pause);
}

async function redactPages(redactor: Awaited<ReturnType<typeof loadRedactor>>, pages: readonly SourcePage[], pause: (() => Promise<void>) | null): ReturnType<PageRedactor> {
  const redacted: Partial<Record<string, number>> = {};
  const mask = (text: string): string => {
    const r = redactor.redact(text);
    for (const [kind, n] of Object.entries(r.counts)) redacted[kind] = (redacted[kind] ?? 0) + (n ?? 0);
    return r.text;
  };
  const masked: SourcePage[] = [];
  for (const p of pages) {
    if (pause) await pause();
    masked.push({ url: p.url, title: mask(p.title), text: mask(p.text) });
  }
  return { pages: masked, redacted };
}
