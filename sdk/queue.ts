import { KitError } from '../core/errors/index.js';
import type { KitHostOptions } from './assistant.js';
import type { KitInstance } from './types.js';

/** What the snippet's inline stub recorded (docs/sdk.md "The snippet"): the stub instance, the method, its arguments, the promise's settlers. */
type Queued = [stub: Record<string, unknown>, method: string, args: unknown[], resolve?: (v: unknown) => void, reject?: (e: unknown) => void];
type Init = (options: unknown, host?: KitHostOptions) => KitInstance;

const realOf = new Map<unknown, KitInstance>();
/** Stub instances whose `init` failed (bad options), with why: their queued calls are not "before Kit.init". */
const failedOf = new Map<unknown, unknown>();

/**
 * Replays calls made on the pre-load stub (`window.Kit = {q: [...]}`): each stub `init` becomes a real instance, the
 * calls queued on the stub's instance run on it in order (settling the promises the stub returned), and the stub
 * instance then forwards to the real one, so a page that kept it keeps working. Later pushes replay at once.
 */
export function replayQueue(queue: unknown[], init: Init): void {
  const drain = (entries: unknown[]): void => {
    for (const [stub, method, args, resolve, reject] of entries as Queued[]) {
      try {
        if (method === 'init') {
          let inst: KitInstance;
          try {
            inst = init(args[0], (args[1] ?? {}) as KitHostOptions);
          } catch (err) {
            failedOf.set(stub, err);
            throw err;
          }
          realOf.set(stub, inst);
          for (const name of Object.keys(stub)) {
            const fn = (inst as unknown as Record<string, unknown>)[name];
            if (typeof fn === 'function') stub[name] = fn.bind(inst);
          }
          resolve?.(inst);
          continue;
        }
        const inst = realOf.get(stub) as unknown as Record<string, (...a: unknown[]) => unknown> | undefined;
        // Its init failed (reported once, above): a question or a vote fails with that reason, anything else does
        // nothing — no flood of errors that blame the page for calling before Kit.init.
        if (!inst && failedOf.has(stub)) {
          if (method === 'ask' || method === 'feedback') reject?.(failedOf.get(stub));
          else resolve?.(undefined);
          continue;
        }
        if (!inst || typeof inst[method] !== 'function') throw new KitError('invalid_request', `Kit: ${method} was called before Kit.init.`);
        Promise.resolve(inst[method](...args)).then(resolve, reject);
      } catch (err) {
        if (reject) reject(err);
        else console.error(err);
      }
    }
  };
  drain(queue.splice(0));
  queue.push = (...entries: unknown[]) => { drain(entries); return 0; };
}
