/**
 * Test support for the local-inference Chromium tests: bundles a page entry with esbuild (code splitting on, so a
 * dynamic import() becomes its own chunk, as in the SDK's webpack build) and serves it, plus any scripted routes,
 * from a loopback server. 127.0.0.1 is a secure context, which WebGPU and the Cache API need.
 */
import { build } from 'esbuild';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

export type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface PageServer {
  readonly origin: string;
  /** Paths requested so far, in order. */
  readonly requests: string[];
  /** Adds or replaces a handler for an exact path or a path prefix ending in '/'. */
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

/** Bundles `entryCode` (TypeScript, imports relative to the repo root) to ESM chunks. Returns the output directory. */
export async function bundlePage(entryCode: string): Promise<string> {
  const outdir = await mkdtemp(join(tmpdir(), 'kit-page-'));
  await build({
    stdin: { contents: entryCode, resolveDir: REPO_ROOT, loader: 'ts', sourcefile: 'page-entry.ts' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir,
    entryNames: 'entry',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'silent',
  });
  return outdir;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json', '.wasm': 'application/wasm' };

/** Serves `/` (an HTML page loading /entry.js and exposing its exports as `window.kit`) and the bundle's files. */
export async function startPageServer(bundleDir: string): Promise<PageServer> {
  const requests: string[] = [];
  const routes = new Map<string, Route>();
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    try {
      const route = routes.get(path) ?? [...routes.entries()].find(([p]) => p.endsWith('/') && path.startsWith(p))?.[1];
      if (route) return await route(req, res);
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<!doctype html><title>kit test</title><script type="module">import * as kit from "/entry.js"; window.kit = kit; window.kitReady = true;</script>');
      }
      const file = resolve(bundleDir, `.${path}`);
      if (!file.startsWith(bundleDir)) throw new Error('outside');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    route: (path, handler) => void routes.set(path, handler),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await rm(bundleDir, { recursive: true, force: true });
    },
  };
}
