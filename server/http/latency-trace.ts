/**
 * A diagnostic of /chat's latency tail, off unless KIT_LATENCY_TRACE names a file: per request the time it arrived
 * (the http server's `request` event), the admission's marks (queued, sent, returned, batch size: set by the chat
 * limiter), the end of the response, and every GC pause, all from performance.now() (µs resolution). Written as
 * JSON when the process exits; bench/support/chat-tail.ts attributes the slowest requests.
 */
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { latencyMarks } from '../../adapters/node/latency-marks.js';

export interface LatencyTrace {
  request(req: IncomingMessage, res: ServerResponse): void;
}

type Marks = Record<string, number>;

function create(file: string): LatencyTrace {
  const requests: Array<{ t0: number; t1: number; path: string; marks: Marks | null }> = [];
  const gcs: Array<[number, number, number]> = [];
  const byId = new Map<string, Marks>();
  latencyMarks.mark = (id, name, value) => {
    let m = byId.get(id);
    if (!m) byId.set(id, (m = {}));
    m[name] = value ?? performance.now();
  };
  const spans: Array<[string, number, number]> = [];
  latencyMarks.span = (name, t0, t1) => void spans.push([name, t0, t1]);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([e.startTime, e.duration, ((e as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind ?? 0]);
  }).observe({ entryTypes: ['gc'] });
  process.once('exit', () => writeFileSync(file, JSON.stringify({ requests, gcs, spans })));
  return {
    request(req, res) {
      const t0 = performance.now();
      res.once('finish', () => {
        const id = res.getHeader('request-id');
        const marks = typeof id === 'string' ? byId.get(id) ?? null : null;
        if (typeof id === 'string') byId.delete(id);
        requests.push({ t0, t1: performance.now(), path: req.url ?? '', marks });
      });
    },
  };
}

export const latencyTrace: LatencyTrace | null = process.env.KIT_LATENCY_TRACE ? create(process.env.KIT_LATENCY_TRACE) : null;
