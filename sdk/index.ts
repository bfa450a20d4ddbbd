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

// The snippet's inline stub queued calls before this script arrived: replay them once this module has finished
// evaluating (the UMD wrapper has then replaced the stub with the real global). The replay code is a small chunk, so
// pages without the stub never load it.
if (typeof window !== 'undefined') {
  const q = (window as { Kit?: { q?: unknown } }).Kit?.q;
  if (Array.isArray(q)) void import(/* webpackChunkName: "kit-queue" */ './queue.js').then((m) => m.replayQueue(q, init));
}
