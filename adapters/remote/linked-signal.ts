/** An abort scope that follows its parents and can also be aborted (or timed out) on its own. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
  /** Aborts with `reason` unless `disarm` (or `dispose`) runs within `ms`; a later call replaces the timer. */
  arm(ms: number, reason: () => unknown): void;
  disarm(): void;
  /** Detaches from the parents and clears the timer; call it when the work is over, or long-lived parents leak listeners. */
  dispose(): void;
}

/**
 * Links an AbortController to several parents (the caller's signal, the client's destroy scope). Hand-rolled rather
 * than AbortSignal.any/timeout, which Safari < 17.4 lacks.
 */
export function linkSignals(...parents: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const detach: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = (): void => controller.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    detach.push(() => parent.removeEventListener('abort', onAbort));
  }
  const disarm = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    arm(ms, reason) {
      disarm();
      timer = setTimeout(() => controller.abort(reason()), ms);
    },
    disarm,
    dispose() {
      disarm();
      for (const off of detach.splice(0)) off();
    },
  };
}
