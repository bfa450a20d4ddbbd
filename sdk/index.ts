/**
 * Kit's browser SDK: `Kit.init(config)` (SPEC §2, CONTRACT §8). The composition root of the SDK (STYLE.md):
 * this entry stays small — config, the instance and the widget — and loads the assistant runtime (page reading,
 * redaction, grounding, engines) as a lazy chunk, so the script a site includes never blocks its page.
 */
import { normalizeConfig } from '../core/config/index.js';
import { KitError } from '../core/errors/index.js';
import type { KitHostOptions } from './assistant.js';
import { createInstance } from './instance.js';
import { SDK_VERSION } from './version.js';
import type { KitInstance } from './types.js';

/** The SDK's version: also the path of its immutable URL, `/sdk/v{version}/kit.js`. */
export const version = SDK_VERSION;
export { KitError };
export type { Answer, KitEvents, KitInstance, ContextStats } from './types.js';
export type { Citation } from '../core/sources.js';
export type { KitHostOptions, ContextSnapshot } from './assistant.js';

// Captured while this script runs (classic or async): the server it came from is the default endpoint.
if (typeof document !== 'undefined' && document.currentScript instanceof HTMLScriptElement && document.currentScript.src) {
  (globalThis as { __kitScriptUrl?: string }).__kitScriptUrl ??= document.currentScript.src;
}

let active: (KitInstance & { readonly destroyed: boolean }) | null = null;

/**
 * Creates the assistant on this page. Throws KitError('invalid_config') for a bad option (also passed to
 * `onError` when that option is a function). A second init replaces the first instance: one assistant per page.
 */
export function init(options: unknown, host: KitHostOptions = {}): KitInstance {
  let config;
  try {
    const normalized = normalizeConfig(options);
    config = normalized.config;
    for (const warning of normalized.warnings) console.warn(`Kit: ${warning}`);
  } catch (err) {
    const onError = (options as { onError?: unknown } | null)?.onError;
    if (typeof onError === 'function' && err instanceof KitError) {
      try { onError({ code: err.code, message: err.message }); } catch { /* the host's bug must not hide ours */ }
    }
    throw err;
  }
  if (active && !active.destroyed) {
    console.warn('Kit: init was called again; the previous assistant is destroyed and replaced.');
    active.destroy();
  }
  active = createInstance(config, host, () => import(/* webpackChunkName: "kit-runtime" */ './runtime.js').then((m) => m.startAssistant));
  return active;
}

/** What the snippet's inline stub recorded before this script arrived (docs/sdk.md "Load asynchronously"). */
type Queued = [stub: Record<string, unknown>, method: string, args: unknown[], resolve?: (v: unknown) => void, reject?: (e: unknown) => void];

const realOf = new Map<unknown, KitInstance>();

/**
 * Replays calls made on the pre-load stub (`window.Kit = {q: [...]}`): each stub `init` becomes a real instance, the
 * calls queued on the stub's instance run on it in order (settling the promises the stub returned), and the stub
 * instance then forwards to the real one, so a page that kept it keeps working.
 */
export function drainQueue(queue: unknown): void {
  if (!Array.isArray(queue)) return;
  for (const [stub, method, args, resolve, reject] of queue.splice(0) as Queued[]) {
    try {
      if (method === 'init') {
        const inst = init(args[0], (args[1] ?? {}) as KitHostOptions);
        realOf.set(stub, inst);
        for (const name of Object.keys(stub)) {
          const fn = (inst as unknown as Record<string, unknown>)[name];
          if (typeof fn === 'function') stub[name] = fn.bind(inst);
        }
        resolve?.(inst);
        continue;
      }
      const inst = realOf.get(stub) as unknown as Record<string, (...a: unknown[]) => unknown> | undefined;
      if (!inst || typeof inst[method] !== 'function') throw new KitError('invalid_request', `Kit: ${method} was called before Kit.init.`);
      Promise.resolve(inst[method](...args)).then(resolve, reject);
    } catch (err) {
      if (reject) reject(err);
      else console.error(err);
    }
  }
}

// The inline stub's queue: replayed once this module has finished evaluating (the UMD wrapper has then replaced the
// stub with the real global); calls still queued later (a stub captured by another script) replay at once.
if (typeof window !== 'undefined') {
  const stub = (window as { Kit?: { q?: unknown } }).Kit;
  const q = stub?.q;
  if (Array.isArray(q)) {
    queueMicrotask(() => drainQueue(q));
    q.push = (...entries: unknown[]) => { queueMicrotask(() => drainQueue(entries)); return 0; };
  }
}
