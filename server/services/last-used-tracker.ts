import { inject, injectable } from 'inversify';
import type { Logger } from 'pino';
import type { KeyStorePort } from '../../core/ports/key-store.port.js';
import type { ServerConfig } from '../config.js';
import { TOKENS } from '../tokens.js';

/**
 * Keeps `last_used_at` without a write per request: uses are collected in memory and written in one
 * statement every `lastUsedFlushMs` (default 30 s) and at shutdown. `last_used_at` may lag by that much.
 */
@injectable()
export class LastUsedTracker {
  readonly #pending = new Map<string, Date>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.KeyStore) private readonly keys: KeyStorePort,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /** Notes a use of a key; no I/O. */
  touch(keyId: string, at: Date): void {
    const previous = this.#pending.get(keyId);
    if (!previous || previous < at) this.#pending.set(keyId, at);
    if (!this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        void this.flush();
      }, this.config.lastUsedFlushMs);
      this.#timer.unref();
    }
  }

  /** Writes every pending use now (one statement per 500 keys). */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      if (this.#pending.size === 0) return;
      const uses = [...this.#pending].map(([id, at]) => ({ id, at }));
      this.#pending.clear();
      try {
        await this.keys.touchLastUsed(uses);
      } catch (err) {
        this.logger.warn({ err: { message: (err as Error).message }, keys: uses.length }, 'could not record key last use');
      }
    });
    return this.#flushing;
  }

  /** Stops the timer and writes what is pending. */
  async stop(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flush();
  }
}
