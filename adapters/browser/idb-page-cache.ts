import { ok } from '../../core/errors/index.js';
import type { PageFetcherPort, PageFetchRequest, PageFetchResponse, PageFetchResult } from '../../core/ports/page-fetcher.port.js';

/** Options of the crawl cache; the defaults keep a whole 100-page site of average size. */
export interface PageCacheOptions {
  /** IndexedDB database name. Default 'kit-page-cache'. */
  readonly dbName?: string;
  /** Served without any request while younger than this. Default 10 minutes. */
  readonly freshForMs?: number;
  /** Older entries are revalidated (If-None-Match / If-Modified-Since) and dropped after this. Default 7 days. */
  readonly maxAgeMs?: number;
  /** Entries kept at most; the least recently stored go first. Default 200. */
  readonly maxEntries?: number;
  /** Characters kept at most across entries. Default 8 000 000 (≈ 16 MB of UTF-16). */
  readonly maxChars?: number;
  /** Clock, for tests. */
  readonly now?: () => number;
}

interface Entry {
  readonly key: string;
  readonly storedAt: number;
  readonly response: PageFetchResponse;
}

const STORE = 'pages';

/**
 * Wraps a page fetcher with an IndexedDB cache keyed by URL, so the next page view does not crawl again (issue 6 §3):
 * a fresh entry answers with no request; a stale one is revalidated with its validators and a 304 keeps it.
 * Only public fetches (`credentials: 'omit'`) are cached: pages read with the visitor's cookies are never persisted,
 * so nothing behind a login outlives the session on a shared computer. When IndexedDB is unavailable (private
 * windows, blocked storage) the fetcher is used as is.
 */
export function withPageCache(fetcher: PageFetcherPort, options: PageCacheOptions = {}): PageFetcherPort & { clear(): Promise<void> } {
  const freshForMs = options.freshForMs ?? 10 * 60_000;
  const maxAgeMs = options.maxAgeMs ?? 7 * 24 * 3_600_000;
  const maxEntries = options.maxEntries ?? 200;
  const maxChars = options.maxChars ?? 8_000_000;
  const now = options.now ?? Date.now;
  let db: Promise<IDBDatabase | null> | null = null;

  const open = (): Promise<IDBDatabase | null> => (db ??= new Promise((resolve) => {
    try {
      const req = indexedDB.open(options.dbName ?? 'kit-page-cache', 1);
      req.onupgradeneeded = () => {
        const store = req.result.createObjectStore(STORE, { keyPath: 'key' });
        store.createIndex('storedAt', 'storedAt');
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  }));

  const tx = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> => {
    const database = await open();
    if (!database) return undefined;
    return new Promise((resolve) => {
      try {
        const t = database.transaction(STORE, mode);
        const req = work(t.objectStore(STORE));
        t.oncomplete = () => resolve(req ? req.result : undefined);
        t.onerror = () => resolve(undefined);
        t.onabort = () => resolve(undefined);
      } catch {
        resolve(undefined);
      }
    });
  };

  async function evict(): Promise<void> {
    const all = await tx<Entry[]>('readonly', (s) => s.getAll());
    if (!all) return;
    all.sort((a, b) => b.storedAt - a.storedAt);
    let chars = 0;
    const doomed = all.filter((e, i) => {
      chars += e.response.text.length;
      return i >= maxEntries || chars > maxChars || now() - e.storedAt > maxAgeMs;
    });
    if (doomed.length) await tx('readwrite', (s) => { for (const e of doomed) s.delete(e.key); });
  }

  const keyOf = (r: PageFetchRequest) => `${r.accept} ${r.url}`;

  return {
    async fetch(request: PageFetchRequest): Promise<PageFetchResult> {
      if (request.credentials !== 'omit') return fetcher.fetch(request);
      const key = keyOf(request);
      const cached = await tx<Entry | undefined>('readonly', (s) => s.get(key));
      const age = cached ? now() - cached.storedAt : Infinity;
      if (cached && age < freshForMs) return ok(cached.response);
      const usable = cached && age < maxAgeMs && (cached.response.validators.etag || cached.response.validators.lastModified);
      const result = await fetcher.fetch(usable ? { ...request, validators: cached.response.validators } : request);
      if (!result.ok) return result;
      if (result.value.status === 304 && cached) {
        await tx('readwrite', (s) => { s.put({ ...cached, storedAt: now() }); });
        return ok(cached.response);
      }
      const r = result.value;
      if (r.status === 200 && !r.truncated && r.text.length <= maxChars / 10) {
        await tx('readwrite', (s) => { s.put({ key, storedAt: now(), response: r } satisfies Entry); });
        void evict();
      }
      return result;
    },
    async clear() {
      await tx('readwrite', (s) => { s.clear(); });
    },
  };
}
