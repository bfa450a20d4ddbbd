import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { inject, injectable } from 'inversify';
import type { Context, Middleware } from 'koa';
import type { ServerConfig } from '../config.js';
import { findStaticFile } from '../http/static-file.js';
import { TOKENS } from '../tokens.js';

const TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
});

/**
 * The console's Content-Security-Policy: its own scripts and styles only (no inline script or style, no eval),
 * API calls to this origin, frames only of its own preview pages, and it may not be framed itself.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/**
 * The preview pages (a sample page with the assistant, framed by the console's install view): Kit's own scripts
 * only, styles inline too (the widget styles its shadow root), framed by the console alone.
 */
export const PREVIEW_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

const HASHED = /\.[0-9a-f]{8}\.(js|css)$/;

/**
 * Serves the built console (dist/console, `npm run build`) at /console: assets under /console/assets (content-
 * hashed chunks cached for a year, entries revalidated), the preview pages under /console/preview, and index.html
 * for every other /console path (the app routes in the browser). Every page gets the CSP above and no-referrer.
 */
@injectable()
export class ConsoleSite {
  constructor(@inject(TOKENS.Config) private readonly config: ServerConfig) {}

  middleware(): Middleware {
    return async (ctx, next) => {
      if (ctx.path !== '/console' && !ctx.path.startsWith('/console/')) return next();
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      if (ctx.path === '/console') {
        ctx.redirect('/console/');
        return;
      }
      const relative = ctx.path.slice('/console/'.length);
      if (relative.startsWith('assets/')) return this.#asset(ctx, relative);
      if (relative === 'preview/sample') return this.#page(ctx, 'preview/sample.html', PREVIEW_CSP, 'SAMEORIGIN');
      return this.#page(ctx, 'index.html', CONSOLE_CSP, 'DENY');
    };
  }

  async #asset(ctx: Context, relative: string): Promise<void> {
    const file = await findStaticFile(this.config.console.dir, relative);
    if (!file) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Not found.\n';
      return;
    }
    ctx.set('Cache-Control', HASHED.test(relative) ? 'public, max-age=31536000, immutable' : 'no-cache');
    await send(ctx, file, await readFile(file.path));
  }

  async #page(ctx: Context, relative: string, csp: string, frameOptions: 'DENY' | 'SAMEORIGIN'): Promise<void> {
    const file = await findStaticFile(this.config.console.dir, relative);
    ctx.set('Content-Security-Policy', csp);
    ctx.set('X-Frame-Options', frameOptions);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cache-Control', 'no-cache');
    if (!file) {
      ctx.status = 503;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `The Kit console is not built on this server: run \`npm run build\` (or \`npm run build:console\`), then reload.\n(looked for ${relative} in ${this.config.console.dir})\n`;
      return;
    }
    await send(ctx, file, await readFile(file.path));
  }
}

async function send(ctx: Context, file: { path: string; mtimeMs: number }, body: Buffer): Promise<void> {
  const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  ctx.set('ETag', etag);
  ctx.set('Last-Modified', new Date(file.mtimeMs).toUTCString());
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = TYPES[extname(file.path)] ?? 'application/octet-stream';
  if (ctx.get('if-none-match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.body = body;
}
