/**
 * A tiny typed event emitter for the SDK instance. A listener that throws never breaks Kit or other listeners:
 * its error is reported to the console, because the host page's bug must not stop the assistant.
 */
export type Listener<T> = (payload: T) => void;

export interface Emitter<E extends Record<string, unknown>> {
  on<K extends keyof E>(event: K, fn: Listener<E[K]>): () => void;
  emit<K extends keyof E>(event: K, payload: E[K]): void;
  clear(): void;
}

/** Creates an emitter; `on` returns the unsubscribe function (CONTRACT §8). */
export function createEmitter<E extends Record<string, unknown>>(): Emitter<E> {
  const listeners = new Map<keyof E, Set<Listener<never>>>();
  return {
    on(event, fn) {
      if (typeof fn !== 'function') throw new TypeError(`on("${String(event)}", fn): fn must be a function`);
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(fn as Listener<never>);
      return () => { set!.delete(fn as Listener<never>); };
    },
    emit(event, payload) {
      const set = listeners.get(event);
      if (!set) return;
      for (const fn of [...set]) {
        try {
          (fn as Listener<typeof payload>)(payload);
        } catch (err) {
          console.error(`Kit: a "${String(event)}" listener threw`, err);
        }
      }
    },
    clear() {
      listeners.clear();
    },
  };
}
