/**
 * The references of the /chat benchmark, each in its own process: `koa` — bare Koa answering GET /healthz and running
 * Kit's extractive engine for POST /v1/chat (no authentication, limits, gate or metering); `http` — node:http
 * answering GET /healthz. Prints `listening on http://127.0.0.1:<port>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createExtractiveInference } from '../../core/retrieval/index.js';
import type { SourcePage } from '../../core/sources.js';

const kind = process.argv[2] ?? 'koa';

function announce(server: { address(): AddressInfo | string | null }): void {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

if (kind === 'http') {
  const server = createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1', () => announce(server));
} else {
  const engine = createExtractiveInference();
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path !== '/v1/chat' || ctx.method !== 'POST') {
      ctx.status = 404;
      return;
    }
    let raw = '';
    for await (const chunk of ctx.req) raw += chunk;
    const body = JSON.parse(raw) as { messages: Array<{ role: 'user' | 'assistant'; content: string }>; sources: SourcePage[] };
    const question = body.messages.at(-1)!.content;
    let text = '';
    const citations: number[] = [];
    let usage = { inputTokens: 0, outputTokens: 0 };
    let finish = 'stop';
    for await (const e of engine.answer({ question, history: body.messages.slice(0, -1), sources: body.sources, maxOutputTokens: 512 })) {
      if (e.type === 'delta') text += e.text;
      else if (e.type === 'citation') citations.push(e.index);
      else {
        usage = e.usage;
        finish = e.finishReason;
      }
    }
    ctx.body = { id: 'req_reference', text, citations, refused: false, model: engine.model, finish_reason: finish, usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens } };
  });
  const server = app.listen(0, '127.0.0.1', () => announce(server));
}
