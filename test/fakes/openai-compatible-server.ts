import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One step of a scripted answer. */
export type OpenAiStep =
  | { readonly content: string } // a `chat.completion.chunk` with delta.content
  | { readonly finish: 'stop' | 'length' } // the chunk with finish_reason
  | { readonly usage: { readonly prompt_tokens: number; readonly completion_tokens: number } } // choices: [] + usage
  | { readonly error: string } // OpenAI's mid-stream error object
  | { readonly raw: string } // bytes written as they are
  | { readonly delayMs: number }
  | { readonly done: true } // `data: [DONE]`
  | { readonly destroy: true }; // the connection breaks (socket destroyed, no terminating chunk)

/** How the fake answers one request. */
export interface OpenAiScript {
  /** Delay before the response headers. */
  readonly headersDelayMs?: number;
  /** A non-200 answer with an OpenAI error body instead of a stream. */
  readonly status?: number;
  readonly steps?: readonly OpenAiStep[];
}

/** A request the fake received, and whether its client went away before the answer ended. */
export interface OpenAiCall {
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  clientClosed: boolean;
  readonly closed: Promise<void>;
}

/** The frames of OpenAI's streaming chat completions, byte for byte: `data: <json>\n\n`. */
export function frame(value: unknown): string {
  return `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
}

/**
 * A loopback server speaking OpenAI's streaming chat-completions protocol (`POST /v1/chat/completions`,
 * `text/event-stream`, `data: {chunk}\n\n` … `data: [DONE]\n\n`), driven by a script per request. It records each
 * request and notices when the client closes the connection before the script ends.
 */
export class FakeOpenAiServer {
  readonly calls: OpenAiCall[] = [];
  /** The script for the next requests. */
  script: OpenAiScript = { steps: [] };
  private server: Server | undefined;
  private readonly id = 'chatcmpl-test123';
  private readonly created = 1_700_000_000;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => void this.respond(req.headers, raw, res));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private chunk(delta: Record<string, unknown>, finish: string | null): Record<string, unknown> {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: 'test-model',
      system_fingerprint: 'fp_test',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage: null,
    };
  }

  private async respond(headers: IncomingHttpHeaders, raw: string, res: ServerResponse): Promise<void> {
    let resolveClosed!: () => void;
    const call: OpenAiCall = { headers, body: JSON.parse(raw) as Record<string, unknown>, clientClosed: false, closed: new Promise((r) => (resolveClosed = r)) };
    this.calls.push(call);
    let finished = false;
    res.on('close', () => {
      if (!finished) call.clientClosed = true;
      resolveClosed();
    });
    const script = this.script;
    const alive = (): boolean => !res.destroyed && !call.clientClosed;
    if (script.headersDelayMs) await sleep(script.headersDelayMs);
    if (!alive()) return;
    if (script.status && script.status !== 200) {
      finished = true;
      res.writeHead(script.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Upstream refused', type: 'invalid_request_error', param: null, code: null } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    res.write(frame(this.chunk({ role: 'assistant', content: '', refusal: null }, null)));
    for (const step of script.steps ?? []) {
      if (!alive()) return;
      if ('delayMs' in step) await sleep(step.delayMs);
      else if ('content' in step) res.write(frame(this.chunk({ content: step.content }, null)));
      else if ('finish' in step) res.write(frame(this.chunk({}, step.finish)));
      else if ('usage' in step) {
        const { prompt_tokens, completion_tokens } = step.usage;
        res.write(frame({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: 'test-model', choices: [], usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens } }));
      } else if ('error' in step) res.write(frame({ error: { message: step.error, type: 'server_error', param: null, code: null } }));
      else if ('raw' in step) res.write(step.raw);
      else if ('done' in step) res.write(frame('[DONE]'));
      else if ('destroy' in step) {
        finished = true;
        res.socket?.destroy();
        return;
      }
    }
    finished = true;
    res.end();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
