import type { EngineLoader, LoadProgress, LocalChatEngine } from './local-engine.js';

interface Entry {
  readonly controller: AbortController;
  readonly listeners: Set<(progress: LoadProgress) => void>;
  readonly promise: Promise<LocalChatEngine>;
  last: LoadProgress | undefined;
  engine: LocalChatEngine | undefined;
  settled: boolean;
  waiters: number;
}

// One engine per model per page: a model takes hundreds of MB to GBs of GPU memory, so a second Kit.init (or a
// destroy then init) must reuse the loaded one rather than load another copy.
const entries = new Map<string, Entry>();

/**
 * The engine for `modelId`: the loaded one when there is one, else joins the load in progress, else starts one with
 * `loader`. Every caller gets the load's progress (the last report is replayed to late joiners). A caller's abort
 * rejects only that caller; the load itself stops when every caller waiting on it has aborted. A failed or aborted
 * load leaves nothing cached, so the next call tries again.
 */
export function acquireEngine(modelId: string, loader: EngineLoader, options: { signal?: AbortSignal; onProgress?: (progress: LoadProgress) => void } = {}): Promise<LocalChatEngine> {
  const { signal, onProgress } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const entry = entries.get(modelId) ?? startLoad(modelId, loader);
  if (entry.engine) return Promise.resolve(entry.engine);

  if (onProgress) {
    entry.listeners.add(onProgress);
    if (entry.last) onProgress(entry.last);
  }
  entry.waiters++;
  return new Promise<LocalChatEngine>((resolve, reject) => {
    let done = false;
    const finish = (): boolean => {
      if (done) return false;
      done = true;
      entry.waiters--;
      signal?.removeEventListener('abort', onAbort);
      if (onProgress) entry.listeners.delete(onProgress);
      return true;
    };
    const onAbort = (): void => {
      if (!finish()) return;
      if (entry.waiters === 0 && !entry.settled) {
        entry.controller.abort(signal?.reason);
        if (entries.get(modelId) === entry) entries.delete(modelId);
      }
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    entry.promise.then(
      (engine) => finish() && resolve(engine),
      (err: unknown) => finish() && reject(err),
    );
  });
}

function startLoad(modelId: string, loader: EngineLoader): Entry {
  const controller = new AbortController();
  const listeners = new Set<(progress: LoadProgress) => void>();
  const entry: Entry = {
    controller,
    listeners,
    last: undefined,
    engine: undefined,
    settled: false,
    waiters: 0,
    promise: Promise.resolve()
      .then(() =>
        loader(modelId, {
          signal: controller.signal,
          onProgress: (progress) => {
            entry.last = progress;
            for (const listener of [...listeners]) listener(progress);
          },
        }),
      )
      .then(
        (engine) => {
          entry.settled = true;
          if (controller.signal.aborted) {
            // Everyone left while the loader finished anyway: free the GPU memory nobody will use.
            void engine.unload().catch(() => undefined);
            throw controller.signal.reason;
          }
          entry.engine = engine;
          return engine;
        },
        (err: unknown) => {
          entry.settled = true;
          if (entries.get(modelId) === entry) entries.delete(modelId);
          throw err;
        },
      ),
  };
  entry.promise.catch(() => undefined); // rejections reach the callers; an abandoned load must not be "unhandled"
  entries.set(modelId, entry);
  return entry;
}

/** Drops `engine` from the cache (when it is still the one cached for `modelId`) and frees its GPU memory. */
export async function evictEngine(modelId: string, engine: LocalChatEngine): Promise<void> {
  if (entries.get(modelId)?.engine === engine) entries.delete(modelId);
  await engine.unload().catch(() => undefined);
}

/** Stops every load in progress and unloads every cached engine (page teardown, tests). */
export async function unloadAllEngines(): Promise<void> {
  const all = [...entries.values()];
  entries.clear();
  await Promise.all(
    all.map(async (entry) => {
      entry.controller.abort(new DOMException('All local engines were unloaded.', 'AbortError'));
      if (entry.engine) await entry.engine.unload().catch(() => undefined);
    }),
  );
}

/** Model ids with a loaded engine or a load in progress. */
export function cachedEngineIds(): string[] {
  return [...entries.keys()];
}
