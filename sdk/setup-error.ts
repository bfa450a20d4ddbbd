import { KitError } from '../core/errors/index.js';

/**
 * The service's refusal of this key or this page's origin, as the KitError the start fails with: its message tells
 * the site's developer what is wrong and how to fix it (the widget shows visitors a plain "not set up" line).
 */
export function setupError(err: KitError, apiKey: string): KitError {
  const key = apiKey.length > 16 ? `${apiKey.slice(0, 12)}…${apiKey.slice(-4)}` : apiKey;
  const ref = typeof err.details?.request_id === 'string' ? ` (request ${err.details.request_id})` : '';
  const off = 'so the assistant is off on this page';
  switch (err.code) {
    case 'origin_not_allowed': {
      const edit = `the key's allowed_origins (PATCH /v1/keys/{id} with {"allowed_origins": [...]}, see docs/api.md "Keys"), then reload${ref}.`;
      // A file: page or a sandboxed frame sends the opaque origin "null", which no key can allow ("file://" is no origin).
      if (location.protocol === 'file:' || location.origin === 'null') {
        return new KitError('origin_not_allowed', `The key ${key} cannot allow this page: a file: page or a sandboxed frame has no origin (it sends "null"), ${off}. Serve the page over http(s), e.g. at http://localhost:8080, and add that origin to ${edit}`, { cause: err });
      }
      return new KitError('origin_not_allowed', `The key ${key} does not allow this page's origin ${location.origin}, ${off}. Add "${location.origin}" to ${edit}`, { cause: err });
    }
    case 'invalid_api_key':
      return new KitError('invalid_api_key', `The service does not know the key ${key} (mistyped, revoked or expired), ${off}. Pass a live publishable key to Kit.init({ apiKey }) (GET /v1/keys lists them)${ref}.`, { cause: err });
    case 'ip_not_allowed':
      return new KitError('ip_not_allowed', `The key ${key} does not allow requests from this network (its ip_allowlist), ${off}. Browsers use publishable keys; a secret key belongs behind your own proxy (docs/mode-b.md)${ref}.`, { cause: err });
    default:
      return new KitError(err.code, `The service refused the key ${key} (${err.message.replace(/\.$/, '')}), ${off}${ref}.`, { cause: err });
  }
}
