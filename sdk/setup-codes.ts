/**
 * Error codes meaning the service refuses this key or this page's origin: the site is not set up for Kit, and nothing
 * will work until its developer fixes it (sdk/setup-error.ts explains each in the console).
 */
export const SETUP_CODES: ReadonlySet<string> = new Set(['origin_not_allowed', 'invalid_api_key', 'ip_not_allowed', 'forbidden']);
