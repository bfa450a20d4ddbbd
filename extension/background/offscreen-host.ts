import { KitError } from '../../core/errors/index.js';

/** How long a new offscreen document may take to say it listens (its bundle is small; WebLLM loads later). */
export const OFFSCREEN_READY_TIMEOUT_MS = 10_000;

export interface OffscreenHostDeps {
  readonly supported: () => boolean;
  readonly exists: () => Promise<boolean>;
  readonly create: () => Promise<void>;
}

/**
 * Keeps the offscreen document that hosts the local model: `ensure()` creates it once (concurrent callers share the
 * creation) and resolves when its listener is up; `ready()` is called when the document reports `offscreen/ready`.
 */
export function createOffscreenHost(deps: OffscreenHostDeps): { ensure(): Promise<void>; ready(): void } {
  let starting: Promise<void> | null = null;
  let onReady: (() => void) | null = null;
  const ensure = async (): Promise<void> => {
    if (!deps.supported()) throw new KitError('webgpu_unavailable', 'Local mode needs offscreen documents (Chromium 109 or later); this browser has none.');
    if (starting) return starting;
    if (await deps.exists()) return;
    starting ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const ready = new Promise<void>((resolve, reject) => {
        onReady = resolve;
        timer = setTimeout(() => reject(new KitError('model_load_failed', 'The extension\'s model host did not start.')), OFFSCREEN_READY_TIMEOUT_MS);
      });
      try {
        await deps.create();
        await ready;
      } finally {
        clearTimeout(timer);
        onReady = null;
      }
    })().finally(() => { starting = null; });
    return starting;
  };
  return { ensure, ready: () => onReady?.() };
}
