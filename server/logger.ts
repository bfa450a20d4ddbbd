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
  /** Writes what is still buffered, synchronously (before process.exit, on a fatal error). */
  flushSync(): void;
}

/**
 * The logger server/main.ts uses: stdout written asynchronously (pino's SonicBoom with `sync: false`), so a
 * burst of access-log lines never blocks the event loop on a slow pipe; pino flushes what is buffered when the
 * process exits.
 */
export function createProcessLogger(level: string): ProcessLogger {
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = createLogger(level, destination);
  return {
    logger,
    flushSync() {
      try {
        destination.flushSync();
      } catch {
        // EAGAIN on a full non-blocking pipe, or the stream already ended: nothing more can be done here
      }
    },
  };
}
