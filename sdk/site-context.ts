/**
 * Reading a site (`context: 'site'`, `urls` or a sitemap): the crawl, its redaction and corpus while pages arrive, and
 * their time slicing, in the crawl's chunk (`kit-crawl`, with sdk/crawl.ts), so a page-context assistant loads none of
 * it (docs/sdk.md "Budgets"). The instance loads this chunk on the first sign of use, beside the runtime's chunk, and
 * starts the crawl at once (`startSite`); the runtime joins it with what only it has (`read`): the live page,
 * Readability's extraction, the redactor and the corpus builder. So the sitemap and the first pages are requested
 * while the runtime's chunk still loads and runs (issue 12 §7), and this chunk imports nothing of the runtime's: what
 * it needs of it comes through `read` (a static import would copy those modules into this chunk).
 */
import type { KitConfig } from '../core/config/index.js';
import { KitError } from '../core/errors/index.js';
import type { SourcePage } from '../core/sources.js';
import type { Corpus } from '../core/text/corpus.js';
import { LANGUAGE_SAMPLE_CHARS, languageSample } from '../core/text/language-sample.js';
import type { prepareCorpus } from '../core/text/prepare-corpus.js';
import type { extractFrom } from '../adapters/browser/extract-main-content.js';
import type { PageRedactor } from './redact-pages.js';
import type { KitEvents } from './types.js';
import { crawlSite, createFetchPageFetcher, createTimeSlicer, createWorkerPageFetcher, leanReadability, pageLinks, reportSiteDiscovery, withPageCache, yieldBehindTasks, yieldToMain, type CachedPageFetcher } from './crawl.js';
import { SDK_VERSION } from './version.js';

/** Where webpack loads the SDK's files from (the directory of kit.js); undefined outside a webpack build. */
declare const __webpack_public_path__: string | undefined;
/** The crawl's fetch worker, built beside kit.js (webpack.config.js, config `sdk-crawl-worker`). */
export const CRAWL_WORKER_FILE = 'kit-crawl-worker.js';

/** What the runtime brings to a crawl started before it: everything in its own chunk. */
export interface SiteTools {
  /**
   * Reads the live page (undefined when it has no text): called once the first pages are requested (its extraction
   * is a task of a few milliseconds that would otherwise hold them back); it only decides whether one more page fits.
   */
  readonly live: () => Promise<SourcePage | undefined>;
  /** Main content of a parsed document (adapters/browser/extract-main-content.ts, with Readability). */
  readonly extract: typeof extractFrom;
  /** Detects the language, loads its pack and builds the corpus (core/text/prepare-corpus.ts). */
  readonly prepare: typeof prepareCorpus;
  /** Masks the pages (null: nothing to redact). */
  readonly redactor: Promise<PageRedactor> | null;
  readonly onProgress: (p: KitEvents['progress']) => void;
  /** Aborts the crawl (a key the service refuses, a destroyed instance). */
  readonly signal: AbortSignal;
}

/** The site as read: the pages (redacted, the live page first when it has text), what the limits cut, the corpus. */
export interface SiteRead {
  readonly pages: SourcePage[];
  readonly cut: { pages: number; chars: number };
  readonly redacted: Partial<Record<string, number>>;
  readonly corpus: Corpus;
}

/** A crawl under way, waiting for the runtime. */
export interface SiteReading {
  /** Joins the crawl: resolves once every page is read, redacted and in the corpus, and the page cache committed. */
  read(tools: SiteTools): Promise<SiteRead>;
}

/**
 * Starts reading the site of this page at once: the sitemap and the pages are requested before the runtime is here
 * (their extraction waits for it). Requests, decoding and the IndexedDB page cache run in a worker once it has
 * started (the first requests do not wait for it; where no worker can start, all run on the main thread:
 * adapters/browser/worker-page-fetcher.ts). `signal` stops it (the instance's lifetime: destroyed, or a start that
 * failed before it joined).
 */
export function startSite(config: KitConfig, signal: AbortSignal): SiteReading {
  const url = location.href.replace(/#.*$/, '');
  const stop = new AbortController();
  let joined!: (tools: SiteTools) => void;
  let gone!: (reason: unknown) => void;
  const tools = new Promise<SiteTools>((resolve, reject) => { joined = resolve; gone = reject; });
  tools.catch(() => undefined);
  const follow = (s: AbortSignal) => (s.aborted ? stop.abort(s.reason) : s.addEventListener('abort', () => stop.abort(s.reason), { once: true }));
  // Stopped before the runtime joined: extraction and the live page will never come.
  stop.signal.addEventListener('abort', () => gone(stop.signal.reason), { once: true });
  follow(signal);

  // Pages as the crawl hands them over (final: in the result's order, cut to the corpus budget), and who waits for one.
  const raw: SourcePage[] = [];
  let waiters: (() => void)[] = [];
  const changed = () => new Promise<void>((resolve) => waiters.push(resolve));
  const notify = () => { const w = waiters; waiters = []; for (const f of w) f(); };
  // Progress before the runtime joined is kept: the last one is emitted when it does.
  let progress: KitEvents['progress'] | null = null;
  let onProgress = (p: KitEvents['progress']) => { progress = p; };
  // The live page is read once the crawl has planned and requested its first pages (its first progress), or at once
  // when it alone may decide whether anything is fetched (maxPages 1: the crawl waits for it before planning).
  let wantLive: (() => void) | null = null;
  const liveWanted = new Promise<void>((resolve) => { wantLive = resolve; });
  const askLive = () => { const ask = wantLive; wantLive = null; if (ask) void yieldToMain().then(ask); };
  if (config.context.maxPages <= 1) askLive();

  const inPage = withPageCache(createFetchPageFetcher());
  const base = typeof __webpack_public_path__ === 'string' && typeof Worker === 'function' ? __webpack_public_path__ : null;
  const fetcher: CachedPageFetcher & { close?(): void } = base === null ? inPage
    : createWorkerPageFetcher({ scriptUrl: new URL(CRAWL_WORKER_FILE, new URL(base, location.href)).href, version: SDK_VERSION, fallback: inPage });
  const parser = new DOMParser();
  const parse = (html: string) => parser.parseFromString(html, 'text/html');
  let ended = false;
  let isJoined = false;
  const crawl = Promise.resolve().then(() => crawlSite({
    pageUrl: url,
    context: config.context,
    fetcher,
    // One page per task: the main thread goes back to the page between pages (issue 12: no long task). As
    // adapters/browser/extract-from-html.ts does, with the runtime's extractor. Behind the tasks already queued: the
    // worker's responses that came meanwhile refill their request slots first (issue 12 §7: the crawl's pace).
    // Readability without the work whose result Kit never reads (the same text: adapters/browser/lean-readability.ts).
    extract: async (html, pageUrl) => {
      const { extract } = await tools;
      await yieldBehindTasks();
      const content = await extract(parse(html), () => parse(html), pageUrl, { readability: leanReadability });
      return content.text === '' ? null : content;
    },
    livePage: Promise.all([tools, liveWanted]).then(([t]) => t.live()),
    pageLinks: config.context.scope === 'site' ? pageLinks(document) : [],
    onProgress: (p) => { onProgress(p); askLive(); },
    onPage: (page) => { raw.push(page); notify(); },
    signal: stop.signal,
  })).finally(() => {
    ended = true;
    notify();
    // Stopped before the runtime joined (it never will): the worker ends here, its writes committed first.
    if (!isJoined) void fetcher.flush().finally(() => fetcher.close?.());
  });
  crawl.catch(() => undefined); // read() reports it

  const read = async (t: SiteTools): Promise<SiteRead> => {
    const redactor = await t.redactor;
    const slicer = createTimeSlicer();
    const pages: SourcePage[] = [];
    const redacted: Partial<Record<string, number>> = {};
    let complete = false;
    // The corpus is built while pages arrive, a page per slice: its pause waits for the next page (or the end).
    let pauses = 0;
    const pause = async () => {
      pauses++;
      await slicer.next();
      while (!complete && pages.length <= pauses) await changed();
    };
    let corpus: Promise<Corpus> | null = null;
    const build = () => (corpus ??= t.prepare(pages, { pause }));
    for (let i = 0; ;) {
      if (i < raw.length) {
        const page = raw[i++]!;
        if (redactor) {
          const masked = await redactor([page], null);
          pages.push(masked.pages[0]!);
          for (const [kind, n] of Object.entries(masked.redacted)) redacted[kind] = (redacted[kind] ?? 0) + (n ?? 0);
        } else {
          pages.push(page);
        }
        notify();
        // The language is detected from the start of the text: once that is in, later pages cannot change it.
        if (!corpus && languageSample(pages).length >= LANGUAGE_SAMPLE_CHARS) build();
        await slicer.next();
      } else if (ended) {
        break;
      } else {
        await changed();
      }
    }
    complete = true;
    notify();
    const result = await crawl;
    if (config.context.scope === 'site' && !result.aborted) reportSiteDiscovery(result, config.context.sitemap, location.origin);
    if (pages.length === 0) throw new KitError('context_unavailable', 'Kit found no readable text on this page or site.');
    return { pages, cut: { ...result.truncated }, redacted, corpus: await build() };
  };
  const finish = async (t: SiteTools): Promise<SiteRead> => {
    // The cache's last writes are committed before `ready` (a worker's queue would die with a visitor who navigates
    // at once, and the next page view would crawl again), while the corpus is finished.
    const flushed = crawl.then(() => fetcher.flush(), () => fetcher.flush());
    try {
      const site = await read(t);
      await flushed;
      // The index is built next, in a task of its own.
      await yieldToMain();
      return site;
    } catch (err) {
      stop.abort(err);
      throw err;
    } finally {
      await flushed.catch(() => undefined);
      fetcher.close?.();
    }
  };
  return {
    read(t) {
      isJoined = true;
      follow(t.signal);
      onProgress = t.onProgress;
      if (progress) t.onProgress(progress);
      joined(t);
      return finish(t);
    },
  };
}
