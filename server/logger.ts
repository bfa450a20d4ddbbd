import { pino, type DestinationStream, type Logger } from 'pino';

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
  /** Writes what is still buffered, synchronously (before process.exit, on a fatal error). */
  flushSync(): void;
}

/** Bytes of log lines gathered before one write(2), and the longest a line waits in that buffer (ms). */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 200;

/**
 * The logger server/main.ts uses: stdout written asynchronously (pino's SonicBoom with `sync: false`), so a
 * burst of access-log lines never blocks the event loop on a slow pipe. Lines are gathered into writes of
 * LOG_BUFFER_BYTES (one system call per ~20 access-log lines instead of one per line, under load), and a timer
 * writes whatever waits every LOG_FLUSH_MS, so a quiet server's lines are late by at most that; pino flushes what
 * is buffered when the process exits.
 */
export function createProcessLogger(level: string): ProcessLogger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  const logger = createLogger(level, destination);
  const flush = (): void => {
    try {
      destination.flush();
    } catch {
      // not ready yet, or already ended: the next tick of the timer (or the exit's flushSync) writes it
    }
  };
  setInterval(flush, LOG_FLUSH_MS).unref();
  return {
    logger,
    flush,
    flushSync() {
      try {
        destination.flushSync();
      } catch {
        // EAGAIN on a full non-blocking pipe, or the stream already ended: nothing more can be done here
      }
    },
  };
}
