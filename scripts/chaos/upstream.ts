import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Rough token count the fake reports for prompts (≈ 4 characters per token, as the server estimates). */
const tokensOf = (text: string): number => Math.ceil(text.length / 4);

/**
 * A loopback OpenAI-compatible backend that honours `max_tokens`: each answer is exactly `max_tokens` one-word tokens,
 * streamed over `durationMs`, then a usage chunk (`prompt_tokens` ≈ prompt characters / 4) and `[DONE]`. Slow on
 * purpose: requests admitted together are all in flight together, which is what a quota must survive.
 */
export class SlowUpstream {
  /** For each request: the max_tokens asked and the prompt tokens reported. */
  readonly calls: Array<{ maxTokens: number; promptTokens: number }> = [];
  private server: Server | undefined;

  constructor(private readonly durationMs = 1_000) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => void this.answer(raw, res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  private async answer(raw: string, res: import('node:http').ServerResponse): Promise<void> {
    const body = JSON.parse(raw) as { max_tokens?: number; messages?: Array<{ content: string }> };
    const maxTokens = Math.max(1, Math.min(body.max_tokens ?? 4096, 4096));
    const promptTokens = tokensOf((body.messages ?? []).map((m) => m.content).join('\n'));
    this.calls.push({ maxTokens, promptTokens });
    let closed = false;
    res.on('close', () => (closed = true));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ id: 'chatcmpl-chaos', object: 'chat.completion.chunk', created: 1, model: 'slow', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const steps = 20;
    const perStep = Math.ceil(maxTokens / steps);
    let sent = 0;
    for (let i = 0; i < steps && sent < maxTokens && !closed; i++) {
      const n = Math.min(perStep, maxTokens - sent);
      sent += n;
      res.write(chunk({ content: 'twenty '.repeat(n) }, null));
      await new Promise((r) => setTimeout(r, this.durationMs / steps));
    }
    if (closed) return;
    res.write(chunk({}, 'length'));
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-chaos', object: 'chat.completion.chunk', created: 1, model: 'slow', choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: sent, total_tokens: promptTokens + sent } })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
