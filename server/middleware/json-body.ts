import { isUtf8 } from 'node:buffer';
import type { Context } from 'koa';
import { KitError } from '../../core/errors/index.js';

function hasBody(ctx: Context): boolean {
  const length = ctx.get('content-length');
  return ctx.get('transfer-encoding') !== '' || (length !== '' && length !== '0');
}

/** Collects the body; past `limit` it stops reading (without destroying the socket, so the 413 still goes out). */
function readLimited(ctx: Context, limit: number): Promise<Buffer> {
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(new KitError('payload_too_large', `The body is larger than ${limit} bytes.`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = () => {
      cleanup();
      reject(new KitError('invalid_request', 'The request body was cut off.'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * The body as text: as `new TextDecoder('utf-8', { fatal: true }).decode` gives it (invalid UTF-8 refused, a leading
 * byte order mark dropped), checked by `isUtf8` and decoded by `toString` — V8's and simdutf's fast paths, where the
 * fatal TextDecoder went through ICU (every /chat request reads one). Null for invalid UTF-8.
 */
function decodeUtf8(raw: Buffer): string | null {
  if (!isUtf8(raw)) return null;
  const bom = raw.length >= 3 && raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf;
  return raw.toString('utf8', bom ? 3 : 0);
}
/** The Content-Type almost every JSON client sends, checked without parsing it. */
const PLAIN_JSON = /^application\/json(?:; ?charset=(?:utf-?8|"utf-?8"))?$/i;

/**
 * Reads a JSON request body of at most `limit` bytes: undefined when there is no body; `unsupported_media_type`
 * unless Content-Type is JSON in UTF-8; `payload_too_large` past the limit (announced or streamed);
 * `invalid_request` for invalid UTF-8 or JSON. The raw bytes stay in `ctx.state.rawBody` (for signature checks).
 */
export async function readJsonBody(ctx: Context, limit: number, mediaTypes: readonly string[] = ['application/json']): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  if (!(mediaTypes.includes('application/json') && PLAIN_JSON.test(ctx.get('content-type')))) {
    const types = mediaTypes.includes('application/json') ? [...mediaTypes, '+json'] : [...mediaTypes];
    if (!ctx.request.is(types)) throw new KitError('unsupported_media_type', `The body must be ${mediaTypes.join(' or ')}.`);
    const charset = ctx.request.charset;
    if (charset && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') throw new KitError('unsupported_media_type', 'JSON bodies must be UTF-8.');
  }
  const announced = Number(ctx.get('content-length') || 0);
  if (announced > limit) throw new KitError('payload_too_large', `The body is larger than ${limit} bytes.`);

  const raw = await readLimited(ctx, limit);
  ctx.state.rawBody = raw;
  const text = decodeUtf8(raw);
  if (text === null) throw new KitError('invalid_request', 'The body is not valid UTF-8.');
  try {
    return JSON.parse(text);
  } catch {
    throw new KitError('invalid_request', 'The body is not valid JSON.');
  }
}
