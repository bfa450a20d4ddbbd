import browser from 'webextension-polyfill';

/** One key of extension storage, typed: `local` persists, `session` lasts until the browser closes. */
export interface StoredValue<T> {
  get(): Promise<T | undefined>;
  set(value: T): Promise<void>;
  /** Calls `fn` with the new value (undefined when removed) after any context writes it; returns the unsubscribe. */
  onChanged(fn: (value: T | undefined) => void): () => void;
}

/**
 * A typed view of one key of `browser.storage`. Extension storage is out of every page's reach, which is why the
 * endpoint and the key live there and nowhere else.
 */
export function storedValue<T>(area: 'local' | 'session', key: string): StoredValue<T> {
  const storage = browser.storage[area];
  return {
    async get() {
      const all = await storage.get(key);
      return all[key] as T | undefined;
    },
    set: (value) => storage.set({ [key]: value }),
    onChanged(fn) {
      const listener = (changes: Record<string, browser.Storage.StorageChange>, areaName: string): void => {
        if (areaName === area && key in changes) fn(changes[key]!.newValue as T | undefined);
      };
      browser.storage.onChanged.addListener(listener);
      return () => browser.storage.onChanged.removeListener(listener);
    },
  };
}
