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

/** The server's structured logger (JSON lines on stdout unless a destination is given). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { service: 'kit-api' }, redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' } }, destination);
}
