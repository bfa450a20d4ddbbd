import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { inject, injectable } from 'inversify';
import type { Context, Middleware } from 'koa';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import type { ServerConfig } from '../config.js';
import { findStaticFile } from '../http/static-file.js';
import { TOKENS } from '../tokens.js';
import { createSdkFiles, sdkSnippet } from '../routes/sdk-files.js';

/** Settings key naming the demo organisation's publishable key (written by seedDemo). */
export const DEMO_KEY_SETTING = 'demo_publishable_key_id';

const TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
});

export { SDK_ENTRY_MAX_AGE_SECONDS } from '../routes/sdk-files.js';
/** How long the demo key lookup is reused. */
const KEY_CACHE_MS = 10_000;

/**
 * Serves the built SDK at /sdk/* (from dist/sdk) and the demo site at /demo/* (from demo/), and redirects / to
 * /demo/. Demo pages get their placeholders filled: {{KIT_DEMO_KEY}} (the seeded publishable key),
 * {{KIT_SDK_URL}} (/sdk/kit.js), {{KIT_ENDPOINT}} (<origin>/v1) and {{KIT_DEMO_ORIGIN}} (<origin>).
 */
@injectable()
export class DemoSite {
  #key: { value: string | null; at: number } | null = null;
  #sdkFiles: ReturnType<typeof createSdkFiles> | null = null;

  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Database) private readonly db: KnexDatabase,
  ) {}

  /** The demo organisation's publishable key, or null when none was seeded (or it was deleted). */
  async demoKey(): Promise<string | null> {
    if (this.#key && Date.now() - this.#key.at < KEY_CACHE_MS) return this.#key.value;
    const setting = await this.db.knex('settings').where({ key: DEMO_KEY_SETTING }).first<{ value: string } | undefined>('value');
    const row = setting
      ? await this.db.knex('api_keys').where({ id: setting.value }).whereNull('revoked_at').first<{ value: string | null } | undefined>('value')
      : undefined;
    this.#key = { value: row?.value ?? null, at: Date.now() };
    return this.#key.value;
  }

  /** Forgets the cached key (after seeding). */
  forgetKey(): void {
    this.#key = null;
  }

  middleware(): Middleware {
    return async (ctx, next) => {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      if (ctx.path === '/' || ctx.path === '/demo') {
        ctx.redirect('/demo/');
        return;
      }
      if (ctx.path === '/favicon.ico') {
        ctx.status = 204; // no icon, and no 404 in every demo visitor's console
        ctx.set('Cache-Control', 'public, max-age=86400');
        return;
      }
      if (ctx.path.startsWith('/sdk/')) return this.#sdk(ctx, ctx.path.slice('/sdk/'.length));
      if (ctx.path.startsWith('/demo/')) return this.#demo(ctx, ctx.path.slice('/demo/'.length) || 'index.html');
      return next();
    };
  }

  async #sdk(ctx: Context, relative: string): Promise<void> {
    // Any site may load the script and its lazy chunks; they carry no credentials.
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    const files = (this.#sdkFiles ??= createSdkFiles(this.config.demo.sdkDir));
    if (relative === 'manifest.json' || relative === 'snippet.txt') {
      // The versioned URLs and SRI hashes of this build (docs/sdk.md); short-cached like the entry.
      const manifest = await files.manifest();
      ctx.set('Cache-Control', 'public, max-age=60');
      if (relative === 'manifest.json') {
        ctx.body = manifest;
        return;
      }
      const snippet = sdkSnippet(`${ctx.protocol}://${ctx.host}`, manifest);
      ctx.type = 'text/plain; charset=utf-8';
      ctx.status = snippet ? 200 : 503;
      ctx.body = snippet ? `${snippet}\n` : 'The Kit SDK is not built on this server.\n';
      return;
    }
    const file = await files.resolve(relative);
    if (!file) {
      if (relative === 'kit.js' || relative === 'kit.mjs') {
        ctx.status = 503;
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = `The Kit SDK is not built on this server: run \`npm run build\` (or \`npm run build:sdk\`), then reload.\n(looked for ${relative} in ${this.config.demo.sdkDir})\n`;
        return;
      }
      return notFound(ctx);
    }
    ctx.set('Cache-Control', file.cacheControl);
    await send(ctx, file.path, file.mtimeMs, await readFile(file.path));
  }

  async #demo(ctx: Context, relative: string): Promise<void> {
    const file = await findStaticFile(this.config.demo.siteDir, relative.endsWith('/') ? `${relative}index.html` : relative);
    if (!file) return notFound(ctx);
    ctx.set('Cache-Control', 'no-cache');
    const ext = extname(file.path);
    if (ext !== '.html' && ext !== '.xml') return send(ctx, file.path, file.mtimeMs, await readFile(file.path));
    // Koa 3's ctx.origin is the Origin header; the page's own origin is protocol + host (X-Forwarded-* with KIT_TRUST_PROXY).
    const origin = `${ctx.protocol}://${ctx.host}`;
    const key = (await this.demoKey()) ?? 'kit_pub_demo_key_missing_see_server_log';
    const text = (await readFile(file.path, 'utf8'))
      .replaceAll('{{KIT_DEMO_KEY}}', key)
      .replaceAll('{{KIT_SDK_URL}}', '/sdk/kit.js')
      .replaceAll('{{KIT_ENDPOINT}}', `${origin}/v1`)
      .replaceAll('{{KIT_DEMO_ORIGIN}}', origin);
    await send(ctx, file.path, file.mtimeMs, Buffer.from(text, 'utf8'));
  }

}

function notFound(ctx: Context): void {
  ctx.status = 404;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Not found.\n';
}

async function send(ctx: Context, path: string, mtimeMs: number, body: Buffer): Promise<void> {
  const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  ctx.set('ETag', etag);
  ctx.set('Last-Modified', new Date(mtimeMs).toUTCString());
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = TYPES[extname(path)] ?? 'application/octet-stream';
  if (ctx.get('if-none-match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.body = body; // Koa sends headers only for HEAD
}
