import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback OpenAI-compatible backend that ignores `max_tokens`: every `POST /v1/chat/completions` streams
 * `chat.completion.chunk`s of `chunkText` for as long as the client reads (respecting back-pressure), and never
 * finishes. It counts the answers it is still writing, so a test can see that the server hung up on it.
 */
export class EndlessUpstream {
  /** Requests received. */
  calls = 0;
  /** Answers still streaming (the client has not closed). */
  open = 0;
  /** max_tokens of each request, as sent. */
  readonly maxTokens: unknown[] = [];
  private server: Server | undefined;

  constructor(private readonly chunkText = 'Pro costs twenty dollars per month. '.repeat(8)) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        this.calls += 1;
        try {
          this.maxTokens.push((JSON.parse(raw) as { max_tokens?: unknown }).max_tokens);
        } catch {
          this.maxTokens.push(undefined);
        }
        this.open += 1;
        let closed = false;
        res.on('close', () => {
          closed = true;
          this.open -= 1;
        });
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const frame = `data: ${JSON.stringify({ id: 'chatcmpl-endless', object: 'chat.completion.chunk', created: 1, model: 'endless', choices: [{ index: 0, delta: { content: this.chunkText }, finish_reason: null }] })}\n\n`;
        const pump = (): void => {
          while (!closed) {
            if (!res.write(frame)) {
              res.once('drain', pump);
              return;
            }
          }
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
