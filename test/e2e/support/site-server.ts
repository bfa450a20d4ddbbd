import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A route: a body, or its status, type, headers and (`delayMs`) the time the server takes to answer, as a network would. */
export type Route = string | { status?: number; type?: string; body: string; headers?: Record<string, string>; delayMs?: number } | ((req: IncomingMessage) => { status?: number; type?: string; body: string; headers?: Record<string, string> });

/** A loopback website for e2e pages: fixed routes, a log of every request (method, path, cookie). */
export interface SiteServer {
  readonly origin: string;
  readonly requests: { method: string; path: string; cookie: string | undefined }[];
  /** Most requests the server was answering at once (from arrival to the response's end); `resetPeak()` starts anew. */
  readonly peak: number;
  resetPeak(): void;
  set(path: string, route: Route): void;
  close(): Promise<void>;
}

export async function startSiteServer(routes: Record<string, Route> = {}, host = '127.0.0.1'): Promise<SiteServer> {
  const table = new Map(Object.entries(routes));
  const requests: SiteServer['requests'] = [];
  let open = 0;
  let peak = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ method: req.method ?? 'GET', path, cookie: req.headers.cookie });
    peak = Math.max(peak, ++open);
    res.on('close', () => { open--; });
    const route = table.get(path);
    if (route === undefined) { res.writeHead(404, { 'content-type': 'text/plain' }); res.end('not found'); return; }
    const r = typeof route === 'string' ? { body: route } : typeof route === 'function' ? route(req) : route;
    const type = r.type ?? (path.endsWith('.xml') ? 'application/xml' : 'text/html; charset=utf-8');
    const answer = () => {
      res.writeHead(r.status ?? 200, { 'content-type': type, ...r.headers });
      res.end(r.body);
    };
    const delay = (r as { delayMs?: number }).delayMs ?? 0;
    if (delay > 0) setTimeout(answer, delay);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    requests,
    get peak() { return peak; },
    resetPeak: () => { peak = open; },
    set: (path, route) => { table.set(path, route); },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A plain article page that loads Kit from `kitUrl` (no init: tests call Kit.init themselves). */
export function articlePage(title: string, paragraphs: string[], kitUrl: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>
<header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article></main>
<footer>© Test site</footer>
<script src="${kitUrl}/sdk/kit.js"></script>
</body></html>`;
}
