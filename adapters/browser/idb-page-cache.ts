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
  /**
   * Whether the cache may hold pages; false skips reading its keys (no fetch waits for IndexedDB to open). Default:
   * what a flag in localStorage says (set when a page is first stored); a worker, which has no localStorage, is told.
   */
  readonly mayHoldPages?: boolean;
}

/** A page fetcher with the cache's own operations. */
export interface CachedPageFetcher extends PageFetcherPort {
  clear(): Promise<void>;
  evict(): Promise<void>;
  /** Commits the queued writes now; resolves when they are. */
  flush(): Promise<void>;
}

/** The localStorage flag saying this browser stored pages in the cache `dbName` (see mayHoldPages). */
export function pageCacheMayHoldPages(dbName = 'kit-page-cache'): boolean {
  return !neverStored(`${dbName}:stored`);
}

/** Sets that flag: a worker's cache cannot (no localStorage), so the page sets it when the worker stores pages. */
export function markPageCacheUsed(dbName = 'kit-page-cache'): void {
  setMark(`${dbName}:stored`);
}

interface Entry {
  readonly key: string;
  readonly storedAt: number;
  readonly response: PageFetchResponse;
}

/** What eviction reads: a few numbers per page, never the pages themselves (issue 12: no long task). */
interface Meta {
  readonly key: string;
  readonly storedAt: number;
  readonly chars: number;
}

const STORE = 'pages';
const META = 'meta';
/** Version 2 added the META store; a version-1 cache (no sizes to evict by) is dropped on upgrade. */
const DB_VERSION = 2;
/** One eviction pass after a burst of writes (a crawl), not one per page. */
const EVICT_AFTER_MS = 1_000;
/** Writes wait this long for others to share their transaction (a crawl's pages arrive a few milliseconds apart). */
const WRITE_BATCH_MS = 25;

/**
 * Wraps a page fetcher with an IndexedDB cache keyed by URL, so the next page view does not crawl again (issue 6 §3):
 * a fresh entry answers with no request; a stale one is revalidated with its validators and a 304 keeps it.
 * Only public fetches (`credentials: 'omit'`) are cached: pages read with the visitor's cookies are never persisted,
 * so nothing behind a login outlives the session on a shared computer. When IndexedDB is unavailable (private
 * windows, blocked storage) the fetcher is used as is.
 *
 * What a crawl pays for it (issue 12: the crawl's speed and main thread): the cache's keys are read once, when the
 * wrapper is created (one small read of the META store, started before the first fetch needs it), so a page the cache
 * does not hold costs no IndexedDB read at all; writes never hold a fetch back — they are queued and committed
 * together, a few pages per transaction (`flush()` commits what is queued at once; the crawl calls it when it ends).
 * Eviction runs once after a burst of writes and reads only each entry's size and age: reading every cached page back
 * after each write made a crawl quadratic, and its deserialization was the crawl's longest main-thread task.
 */
export function withPageCache(fetcher: PageFetcherPort, options: PageCacheOptions = {}): CachedPageFetcher {
  const freshForMs = options.freshForMs ?? 10 * 60_000;
  const maxAgeMs = options.maxAgeMs ?? 7 * 24 * 3_600_000;
  const maxEntries = options.maxEntries ?? 200;
  const maxChars = options.maxChars ?? 8_000_000;
  const now = options.now ?? Date.now;
  let db: Promise<IDBDatabase | null> | null = null;
  let evictTimer: ReturnType<typeof setTimeout> | null = null;
  let lastWrite = -Infinity;
  /** Written but not yet committed: answers like the cache itself, and goes out in the next transaction. */
  const queued = new Map<string, Entry>();
  let writeTimer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<unknown> = Promise.resolve();

  const open = (): Promise<IDBDatabase | null> => (db ??= new Promise((resolve) => {
    try {
      const req = indexedDB.open(options.dbName ?? 'kit-page-cache', DB_VERSION);
      req.onupgradeneeded = () => {
        const database = req.result;
        for (const name of [STORE, META]) if (database.objectStoreNames.contains(name)) database.deleteObjectStore(name);
        database.createObjectStore(STORE, { keyPath: 'key' });
        database.createObjectStore(META, { keyPath: 'key' });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  }));

  const tx = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore, meta: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> => {
    const database = await open();
    if (!database) return undefined;
    return new Promise((resolve) => {
      try {
        const t = database.transaction([STORE, META], mode);
        const req = work(t.objectStore(STORE), t.objectStore(META));
        t.oncomplete = () => resolve(req ? req.result : undefined);
        t.onerror = () => resolve(undefined);
        t.onabort = () => resolve(undefined);
      } catch {
        resolve(undefined);
      }
    });
  };

  // The keys the cache holds, read as soon as the wrapper exists (the database opens while the crawl plans). A
  // browser that never stored a page here (a flag in localStorage says so) has none: no fetch waits for IndexedDB to
  // open, which on a first visit (creating the database) takes longer than the sitemap's request.
  const mark = `${options.dbName ?? 'kit-page-cache'}:stored`;
  const keys: Promise<Set<string> | null> = !(options.mayHoldPages ?? !neverStored(mark))
    ? Promise.resolve(new Set())
    : tx<IDBValidKey[]>('readonly', (_s, meta) => meta.getAllKeys()).then((all) => (all ? new Set(all.map(String)) : null));

  async function flush(): Promise<void> {
    if (writeTimer !== null) { clearTimeout(writeTimer); writeTimer = null; }
    if (queued.size > 0) {
      const batch = [...queued.values()];
      const done = tx('readwrite', (s, meta) => {
        for (const entry of batch) {
          s.put(entry);
          meta.put({ key: entry.key, storedAt: entry.storedAt, chars: entry.response.text.length } satisfies Meta);
        }
      }).then(() => { for (const entry of batch) if (queued.get(entry.key) === entry) queued.delete(entry.key); });
      writing = Promise.all([writing, done]);
    }
    await writing;
  }
  const put = (entry: Entry) => {
    if (queued.size === 0) setMark(mark);
    queued.set(entry.key, entry);
    void keys.then((k) => k?.add(entry.key));
    writeTimer ??= setTimeout(() => { writeTimer = null; void flush(); }, WRITE_BATCH_MS);
    scheduleEvict();
  };

  async function evict(): Promise<void> {
    if (evictTimer !== null) { clearTimeout(evictTimer); evictTimer = null; }
    await flush();
    const all = await tx<Meta[]>('readonly', (_s, meta) => meta.getAll());
    if (!all) return;
    all.sort((a, b) => b.storedAt - a.storedAt);
    let chars = 0;
    const doomed = all.filter((e, i) => {
      chars += e.chars;
      return i >= maxEntries || chars > maxChars || now() - e.storedAt > maxAgeMs;
    });
    if (doomed.length === 0) return;
    await tx('readwrite', (s, meta) => { for (const e of doomed) { s.delete(e.key); meta.delete(e.key); } });
    const known = await keys;
    for (const e of doomed) known?.delete(e.key);
  }
  // Eviction waits for EVICT_AFTER_MS without a write. A write only notes its time (a crawl writes a page every few
  // milliseconds: clearing and setting a timer for each cost the worker more than the time check); the timer, once
  // it fires, waits out whatever the last write left of the quiet period.
  const evictWhenQuiet = () => {
    const quiet = performance.now() - lastWrite;
    evictTimer = null;
    if (quiet < EVICT_AFTER_MS) evictTimer = setTimeout(evictWhenQuiet, EVICT_AFTER_MS - quiet);
    else void evict();
  };
  const scheduleEvict = () => {
    lastWrite = performance.now();
    evictTimer ??= setTimeout(evictWhenQuiet, EVICT_AFTER_MS);
  };

  const keyOf = (r: PageFetchRequest) => `${r.accept} ${r.url}`;
  /** The cached entry for `key`: the write queue, else IndexedDB — read only when the cache holds the key. */
  const lookup = async (key: string): Promise<Entry | undefined> => {
    const pending = queued.get(key);
    if (pending) return pending;
    const known = await keys;
    if (known && !known.has(key)) return undefined;
    return tx<Entry | undefined>('readonly', (s) => s.get(key));
  };

  return {
    async fetch(request: PageFetchRequest): Promise<PageFetchResult> {
      if (request.credentials !== 'omit') return fetcher.fetch(request);
      const key = keyOf(request);
      const cached = await lookup(key);
      const age = cached ? now() - cached.storedAt : Infinity;
      if (cached && age < freshForMs) return ok(cached.response);
      const usable = cached && age < maxAgeMs && (cached.response.validators.etag || cached.response.validators.lastModified);
      const result = await fetcher.fetch(usable ? { ...request, validators: cached.response.validators } : request);
      if (!result.ok) return result;
      if (result.value.status === 304 && cached) {
        put({ ...cached, storedAt: now() });
        return ok(cached.response);
      }
      const r = result.value;
      if (r.status === 200 && !r.truncated && r.text.length <= maxChars / 10) put({ key, storedAt: now(), response: r });
      return result;
    },
    async clear() {
      await flush();
      queued.clear();
      await tx('readwrite', (s, meta) => { s.clear(); meta.clear(); });
      (await keys)?.clear();
      try { storage()?.removeItem(mark); } catch { /* blocked storage: the flag only saves a read */ }
    },
    evict,
    flush,
  };
}

/** localStorage, or null where it is missing or throws (sandboxed frames, blocked storage): then the keys are read. */
function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage ?? null;
  } catch {
    return null;
  }
}

function neverStored(mark: string): boolean {
  try {
    return storage()?.getItem(mark) === null;
  } catch {
    return false;
  }
}

function setMark(mark: string): void {
  try {
    storage()?.setItem(mark, '1');
  } catch {
    // Full or blocked storage: the next page view reads the cache's keys instead.
  }
}
