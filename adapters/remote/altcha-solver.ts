import { KitError } from '../../core/errors/index.js';
import type { AltchaChallenge } from '../../core/ports/bot-challenge.port.js';

/** Solves one ALTCHA challenge: resolves to the `solution` of POST /session (base64 JSON, CONTRACT §3). */
export type ChallengeSolver = (challenge: AltchaChallenge, signal?: AbortSignal) => Promise<string>;

/** Options of the ALTCHA solver. */
export interface AltchaSolverOptions {
  /** Try a Web Worker from a Blob URL first. Default true; false (or a CSP that forbids blob: workers) solves on the main thread. */
  readonly worker?: boolean;
  /** Longest main-thread slice before yielding to the event loop, in ms. Default 8 (half a frame at 60 Hz). */
  readonly sliceMs?: number;
}

/**
 * The proof-of-work search, shared by the worker and the main thread. It is turned into the worker's source with
 * `Function.prototype.toString`, so it must stay self-contained: no imports, no outer variables, no helpers.
 * Hashes `salt + n` for n = 0..max (the public widget's order) until the hex digest equals `challenge`.
 * Digests run in batches because each WebCrypto call is a round trip to another thread; `sliceMs > 0` yields to the
 * event loop between slices (main thread), `sliceMs = 0` never does (worker). Resolves to the number, -1 when none
 * is found, -2 when `stop()` said so.
 */
async function searchAltcha(algorithm: string, challenge: string, salt: string, max: number, sliceMs: number, stop: () => boolean): Promise<number> {
  const target = challenge.toLowerCase();
  const encoder = new TextEncoder();
  const batch = 64;
  let sliceStart = performance.now();
  for (let n = 0; n <= max; n += batch) {
    if (stop()) return -2;
    const pending: Promise<ArrayBuffer>[] = [];
    for (let i = n; i < n + batch && i <= max; i++) pending.push(crypto.subtle.digest(algorithm, encoder.encode(salt + i)));
    const digests = await Promise.all(pending);
    for (let k = 0; k < digests.length; k++) {
      const bytes = new Uint8Array(digests[k] as ArrayBuffer);
      let hex = '';
      for (let b = 0; b < bytes.length; b++) hex += (bytes[b] as number).toString(16).padStart(2, '0');
      if (hex === target) return n + k;
    }
    if (sliceMs > 0 && performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
  return -1;
}

// The worker answers one message `[algorithm, challenge, salt, max]` with the number (or -1).
const WORKER_SOURCE = `const s=${searchAltcha.toString()};onmessage=async(e)=>{const d=e.data;postMessage(await s(d[0],d[1],d[2],d[3],0,()=>false))}`;

/**
 * Creates an ALTCHA v1 solver that runs off the main thread: in a Web Worker made from a Blob URL (nothing extra to
 * host), falling back to small main-thread slices when the page's CSP forbids blob: workers. The work is bounded by
 * the challenge's `maxnumber` and by the signal (aborting terminates the worker).
 */
export function createAltchaSolver(options: AltchaSolverOptions = {}): ChallengeSolver {
  const useWorker = options.worker ?? true;
  const sliceMs = options.sliceMs ?? 8;
  return async (challenge, signal) => {
    signal?.throwIfAborted();
    if (typeof crypto === 'undefined' || !crypto.subtle) {
      throw new KitError('challenge_failed', 'The bot challenge needs Web Crypto, which this page does not offer (it is not a secure context).');
    }
    const max = Math.max(0, Math.floor(Number(challenge.maxnumber) || 0));
    const args = [challenge.algorithm, challenge.challenge, challenge.salt, max] as const;
    const inWorker = useWorker ? await solveInWorker(args, signal) : undefined;
    const number = inWorker ?? (await searchAltcha(...args, sliceMs, () => signal?.aborted === true));
    signal?.throwIfAborted();
    if (number < 0) throw new KitError('challenge_failed', 'The bot challenge has no solution within its maxnumber.');
    const payload = JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: challenge.salt, signature: challenge.signature });
    return base64(payload);
  };
}

/** Resolves to the worker's answer, or undefined when no worker could run (no Worker, CSP, worker crashed). */
function solveInWorker(args: readonly [string, string, string, number], signal: AbortSignal | undefined): Promise<number | undefined> {
  if (typeof Worker === 'undefined' || typeof Blob === 'undefined' || typeof URL.createObjectURL !== 'function') return Promise.resolve(undefined);
  return new Promise<number | undefined>((resolve, reject) => {
    let worker: Worker;
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
    const finish = (): void => {
      worker?.terminate();
      URL.revokeObjectURL(url);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      finish();
      reject(signal?.reason);
    };
    try {
      worker = new Worker(url);
    } catch {
      finish(); // older engines throw a SecurityError synchronously when CSP forbids the worker
      resolve(undefined);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    // A CSP block or a failed script load arrives as an error event; fall back instead of failing.
    worker.onerror = (event) => {
      event.preventDefault?.();
      finish();
      resolve(undefined);
    };
    worker.onmessage = (event: MessageEvent<unknown>) => {
      finish();
      resolve(typeof event.data === 'number' ? event.data : undefined);
    };
    worker.postMessage(args);
  });
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
