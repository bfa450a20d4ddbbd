import { pino, type DestinationStream, type Logger } from 'pino';
import sonicBoom from 'sonic-boom';

// A CommonJS module whose class is also its `SonicBoom` property (what its types declare for ESM importers).
const { SonicBoom } = sonicBoom;

/**
 * Paths pino censors wherever they appear (defence in depth: Kit's own log lines never include headers or
 * bodies, but a future `logger.info({ req })` must not leak a credential).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["kit-session"]',
  'headers.authorization',
  'headers.cookie',
  'headers["kit-session"]',
  'password',
  'token',
  'secret',
  'key',
  'value',
  'invite_token',
  '*.password',
  '*.token',
  '*.secret',
  '*.key',
  '*.value',
  '*.invite_token',
  '*.authorization',
  '*.api_key',
];

/**
 * The server's structured logger: one JSON object per line, on stdout unless a destination is given. Errors are
 * logged as `err: { type, message, stack }` — the stack a JSON string, never raw lines.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, base: { service: 'kit-api' }, redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' }, serializers: { err: pino.stdSerializers.err } },
    destination,
  );
}

/** The process's logger and its stdout destination. */
export interface ProcessLogger {
  readonly logger: Logger;
  /** Starts writing what is buffered now (asynchronously). */
  flush(): void;
  /** Writes what is still buffered, synchronously. */
  flushSync(): void;
  /** Writes what is still buffered before the process exits: asynchronously first (at most `timeoutMs`), then synchronously. */
  drain(timeoutMs?: number): Promise<void>;
}

/** Bytes of log lines gathered before one write(2), and the longest a line waits in that buffer (ms). */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 200;

/**
 * The logger server/main.ts uses: stdout written asynchronously (SonicBoom with `sync: false`), so a burst of
 * access-log lines never blocks the event loop on a slow pipe. Lines are gathered into writes of LOG_BUFFER_BYTES
 * (one system call per ~20 access-log lines instead of one per line, under load), and a timer writes whatever waits
 * every LOG_FLUSH_MS, so a quiet server's lines are late by at most that; what is buffered is written when the
 * process exits.
 *
 * A stdout nobody reads any more (a log collector that died, `npm start | head`) answers EPIPE: from then on the
 * lines are dropped, as pino's own destination does. SonicBoom 5 is used directly rather than through
 * `pino.destination()` (pino 10 bundles SonicBoom 4, whose synchronous flush retried EPIPE forever — and pino
 * flushes synchronously on every fatal line and at exit: a server refused its data directory, or told to stop,
 * spun instead of exiting).
 */
export function createProcessLogger(level: string): ProcessLogger {
  const destination = new SonicBoom({ fd: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  let dropping = false;
  const drop = (): void => {
    if (dropping) return;
    dropping = true;
    // Nothing more can reach the reader: stop buffering (memory) and writing.
    destination.write = () => true;
    destination.flush = (cb?: (err?: Error) => unknown) => void cb?.();
    destination.flushSync = () => undefined;
  };
  destination.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') drop();
    else process.stderr.write(`kit: writing the log failed: ${err.message}\n`);
  });
  const logger = createLogger(level, destination);
  const flush = (): void => {
    try {
      destination.flush();
    } catch {
      // not ready yet, or already ended: the next tick of the timer (or the exit's flushSync) writes it
    }
  };
  setInterval(flush, LOG_FLUSH_MS).unref();
  const flushSync = (): void => {
    try {
      destination.flushSync();
    } catch (err) {
      // EPIPE: nobody reads (drop from now on); EAGAIN past its retries, or the stream already ended: nothing more
      // can be done here
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') drop();
    }
  };
  process.once('exit', flushSync);
  return {
    logger,
    flush,
    flushSync,
    drain(timeoutMs = 1_000) {
      return new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          flushSync();
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        try {
          destination.flush(() => done());
        } catch {
          done(); // not open yet, or already ended
        }
      });
    },
  };
}
