/**
 * Reading the page cache's flag in localStorage (adapters/browser/idb-page-cache.ts sets it when this browser first
 * stores a page in the cache, so a browser that never did reads nothing of IndexedDB before its crawl's first
 * request). A module of its own because the SDK's entry reads it too (sdk/sitemap-head-start.ts: a sitemap the cache
 * may hold is not requested ahead of the crawl), and must not bring the cache with it; what only the cache does
 * (setting the flag) stays there, out of the entry.
 */

/** The localStorage flag saying this browser stored pages in the cache `dbName` (see PageCacheOptions.mayHoldPages). */
export function pageCacheMayHoldPages(dbName = 'kit-page-cache'): boolean {
  return !neverStored(`${dbName}:stored`);
}

/** localStorage, or null where it is missing or throws (sandboxed frames, blocked storage): then the keys are read. */
export function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage ?? null;
  } catch {
    return null;
  }
}

export function neverStored(mark: string): boolean {
  try {
    return storage()?.getItem(mark) === null;
  } catch {
    return false;
  }
}
