/**
 * A slow-header flood, run as its own process so it never shares an event loop with what it measures:
 * `node --import tsx slow-header-flood.ts <json options>`. It opens `connections` sockets to the server spread over
 * `sources` loopback addresses (127.0.0.2, 127.0.0.3, …), sends each an unfinished request head and one more
 * header line every `dribbleMs`, then, after `holdMs`, releases them all at once (the blank line that ends the
 * head). It prints one JSON line: how many connected, how many the server refused with 429, closed (timeouts) or
 * answered after the release.
 */
import { connect, type Socket } from 'node:net';

export interface FloodOptions {
  readonly port: number;
  readonly connections: number;
  /** Distinct source addresses (127.0.0.2 …); the per-address cap applies to each. */
  readonly sources: number;
  readonly path: string;
  readonly dribbleMs: number;
  /** How long to hold the unfinished heads before releasing them (ms). */
  readonly holdMs: number;
  /** How long to wait for answers after the release (ms). */
  readonly settleMs: number;
}

export interface FloodReport {
  readonly connected: number;
  readonly refused429: number;
  readonly closedBeforeRelease: number;
  readonly answeredAfterRelease: number;
  readonly errors: number;
}

async function flood(o: FloodOptions): Promise<FloodReport> {
  const sockets: Array<{ socket: Socket; data: string; closed: boolean; released: boolean }> = [];
  let errors = 0;
  await Promise.all(
    Array.from({ length: o.connections }, (_, i) =>
      new Promise<void>((resolve) => {
        const socket = connect({ port: o.port, host: '127.0.0.1', localAddress: `127.0.0.${2 + (i % o.sources)}` });
        const entry = { socket, data: '', closed: false, released: false };
        sockets.push(entry);
        socket.setEncoding('latin1');
        socket.on('data', (c: string) => (entry.data += c));
        socket.on('close', () => (entry.closed = true));
        socket.on('error', () => errors++);
        socket.once('connect', () => {
          socket.write(`GET ${o.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
          resolve();
        });
        socket.once('close', () => resolve());
      }),
    ),
  );
  const connected = sockets.filter((s) => !s.closed).length;
  const dribble = setInterval(() => {
    for (const s of sockets) if (!s.closed) s.socket.write(`X-Slow-${Math.random().toString(36).slice(2, 8)}: 1\r\n`);
  }, o.dribbleMs);
  await new Promise((r) => setTimeout(r, o.holdMs));
  clearInterval(dribble);
  const refused429 = sockets.filter((s) => s.data.startsWith('HTTP/1.1 429')).length;
  const closedBeforeRelease = sockets.filter((s) => s.closed).length;
  for (const s of sockets) {
    if (s.closed) continue;
    s.released = true;
    s.socket.write('Connection: close\r\n\r\n');
  }
  await new Promise((r) => setTimeout(r, o.settleMs));
  const answeredAfterRelease = sockets.filter((s) => s.released && /^HTTP\/1\.1 \d{3}/.test(s.data)).length;
  for (const s of sockets) s.socket.destroy();
  return { connected, refused429, closedBeforeRelease, answeredAfterRelease, errors };
}

const options = JSON.parse(process.argv[2] ?? '{}') as FloodOptions;
process.stdout.write(`${JSON.stringify(await flood(options))}\n`);
process.exit(0);
