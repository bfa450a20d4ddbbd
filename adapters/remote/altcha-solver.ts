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
 * The proof-of-work search, shared by the worker and the main thread. It becomes the worker's source through
 * `Function.prototype.toString`, so it must stay self-contained: no imports, no outer variables, no helpers.
 * Hashes `salt + n` for n = 0..max (the public widget's order) until the hex digest equals `challenge`.
 * SHA-256 (the contract's default) runs in plain JS from the salt's precomputed midstate: about 10× faster than a
 * WebCrypto call per number, which costs a round trip each (bench/altcha-solver.bench.ts: ~2–4 µs vs ~35–55 µs per number).
 * Other algorithms use WebCrypto in batches. `sliceMs > 0` yields to the event loop between slices (main thread),
 * `sliceMs = 0` never does (worker). Resolves to the number, -1 when none is found, -2 when `stop()` said so.
 */
async function searchAltcha(algorithm: string, challenge: string, salt: string, max: number, sliceMs: number, stop: () => boolean): Promise<number> {
  const target = challenge.toLowerCase();
  const prefix = new TextEncoder().encode(salt);
  let sliceStart = performance.now();
  const pause = async (): Promise<void> => {
    if (sliceMs > 0 && performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  };

  if (algorithm.toUpperCase() !== 'SHA-256' || !/^[0-9a-f]{64}$/.test(target)) {
    for (let n = 0; n <= max; n += 64) {
      if (stop()) return -2;
      const pending: Promise<ArrayBuffer>[] = [];
      for (let i = n; i < n + 64 && i <= max; i++) pending.push(crypto.subtle.digest(algorithm, new TextEncoder().encode(salt + i)));
      const digests = await Promise.all(pending);
      for (let k = 0; k < digests.length; k++) {
        let hex = '';
        for (const byte of new Uint8Array(digests[k] as ArrayBuffer)) hex += byte.toString(16).padStart(2, '0');
        if (hex === target) return n + k;
      }
      await pause();
    }
    return -1;
  }

  // FIPS 180-4 constants: fractional parts of the square (H) and cube (K) roots of the first primes.
  const K = new Uint32Array(64);
  const H = new Uint32Array(8);
  for (let p = 2, i = 0; i < 64; p++) {
    let prime = true;
    for (let d = 2; d * d <= p; d++) if (p % d === 0) prime = false;
    if (!prime) continue;
    if (i < 8) H[i] = ((p ** (1 / 2)) % 1) * 2 ** 32;
    K[i++] = ((p ** (1 / 3)) % 1) * 2 ** 32;
  }
  const W = new Uint32Array(64);
  const ror = (x: number, n: number): number => (x >>> n) | (x << (32 - n));
  const compress = (state: Uint32Array, bytes: Uint8Array, at: number): void => {
    for (let i = 0; i < 16; i++, at += 4) W[i] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15];
      const y = W[i - 2];
      W[i] = (ror(x, 7) ^ ror(x, 18) ^ (x >>> 3)) + W[i - 7] + (ror(y, 17) ^ ror(y, 19) ^ (y >>> 10)) + W[i - 16];
    }
    let a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6], h = state[7];
    for (let i = 0; i < 64; i++) {
      const t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + W[i];
      const t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  };

  const want = new Uint32Array(8);
  for (let i = 0; i < 8; i++) want[i] = parseInt(target.slice(8 * i, 8 * i + 8), 16);
  const whole = prefix.length - (prefix.length % 64);
  for (let at = 0; at < whole; at += 64) compress(H, prefix, at);
  const block = new Uint8Array(128);
  const state = new Uint32Array(8);
  for (let n = 0; n <= max; n++) {
    if ((n & 1023) === 0) {
      if (stop()) return -2;
      await pause();
    }
    block.fill(0);
    block.set(prefix.subarray(whole));
    const digits = String(n);
    let length = prefix.length - whole;
    for (let i = 0; i < digits.length; i++) block[length++] = digits.charCodeAt(i);
    block[length] = 0x80;
    const end = length + 9 > 64 ? 128 : 64;
    const bits = (prefix.length + digits.length) * 8;
    block[end - 5] = bits / 2 ** 32;
    block[end - 4] = bits >>> 24;
    block[end - 3] = bits >>> 16;
    block[end - 2] = bits >>> 8;
    block[end - 1] = bits;
    state.set(H);
    compress(state, block, 0);
    if (end === 128) compress(state, block, 64);
    let same = true;
    for (let i = 0; i < 8; i++) if (state[i] !== want[i]) same = false;
    if (same) return n;
  }
  return -1;
}

// The worker answers one message `[algorithm, challenge, salt, max]` with the number (-1: none); null when the
// search threw, so the main thread repeats it and reports the error.
const WORKER_SOURCE = `const s=${searchAltcha.toString()};onmessage=async(e)=>{const d=e.data;postMessage(await s(d[0],d[1],d[2],d[3],0,()=>false).catch(()=>null))}`;

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
    const max = Math.max(0, Math.floor(Number(challenge.maxnumber) || 0));
    const args = [String(challenge.algorithm), String(challenge.challenge), String(challenge.salt), max] as const;
    let number = useWorker ? await solveInWorker(args, signal) : undefined;
    try {
      number ??= await searchAltcha(...args, sliceMs, () => signal?.aborted === true);
    } catch (cause) {
      // e.g. an algorithm WebCrypto does not know, or no WebCrypto at all outside a secure context
      throw new KitError('challenge_failed', 'The bot challenge could not be solved in this browser.', { cause });
    }
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
