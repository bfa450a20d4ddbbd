import type { CrawlSkip, SkipReason } from './types.js';

/** Records left-out URLs: every one counted by reason, the first `maxListed` kept as a list (a 50 MB sitemap of foreign URLs must not grow it). */
export class CrawlLog {
  readonly skipped: CrawlSkip[] = [];
  readonly counts: Partial<Record<SkipReason, number>> = {};
  requests = 0;
  readonly #maxListed: number;

  constructor(maxListed: number) {
    this.#maxListed = maxListed;
  }

  skip(url: string, reason: SkipReason, status?: number): void {
    this.counts[reason] = (this.counts[reason] ?? 0) + 1;
    if (this.skipped.length < this.#maxListed) this.skipped.push(status === undefined ? { url, reason } : { url, reason, status });
  }
}
