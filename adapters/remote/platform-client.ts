import { KitError, isKitError } from '../../core/errors/index.js';
import type { BotChallengeConfig } from '../../core/ports/bot-challenge.port.js';
import type { HttpResponse, HttpTransportPort } from '../../core/ports/http-transport.port.js';
import type { ChallengeSolver } from './altcha-solver.js';
import { linkSignals, type LinkedSignal } from './linked-signal.js';
import { networkError, responseError } from './response-error.js';
import { readSse, type SseEvent } from './sse-reader.js';

/** `limits` of GET /config (CONTRACT §3, §6). */
export interface PlatformLimits {
  readonly requests_per_minute: number;
  readonly session_requests_per_minute: number;
  readonly max_question_chars: number;
  readonly max_context_chars: number;
  readonly max_pages: number;
  readonly session_ttl_seconds: number;
}

/** `assistant` of GET /config: the site owner's settings for this key (issue 13; absent from older servers). */
export interface PlatformAssistant {
  readonly name: string | null;
  readonly greeting: string | null;
  readonly starter_questions: readonly string[];
  readonly instructions: string | null;
  readonly refusal_message: string | null;
  readonly contact_url: string | null;
  readonly theme: {
    readonly accent: string | null;
    readonly scheme: 'auto' | 'light' | 'dark';
    readonly position: 'bottom-right' | 'bottom-left';
    readonly launcher_label: string | null;
    readonly logo_url: string | null;
  };
  readonly language: string;
  readonly placement: 'launcher' | 'sidebar' | 'inline';
  readonly logging: { readonly mode: 'off' | 'redacted' | 'full'; readonly notice: string | null };
}

/** GET /config: what the key's plan allows and the bot challenge to solve for a session. */
export interface PlatformConfig {
  readonly tier: string;
  readonly mode: 'auto' | 'local' | 'remote';
  readonly model: string;
  readonly limits: PlatformLimits;
  readonly bot_challenge: BotChallengeConfig;
  readonly assistant?: PlatformAssistant;
}

/** The body of POST /chat without `stream` (the client always streams). */
export interface ChatRequestBody {
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: string }[];
  readonly sources: readonly { readonly url: string; readonly title: string; readonly text: string }[];
  readonly model: string;
  /** The page asked on and the conversation, for the owner's question log (issue 13). */
  readonly page_url?: string;
  readonly conversation_id?: string;
}

/** POST /feedback: a visitor's vote on an answer. */
export interface FeedbackBody {
  readonly message_id: string;
  readonly rating: 'up' | 'down';
  readonly comment?: string;
}

/** A session from POST /session; times are this client's clock (ms). */
export interface PlatformSession {
  readonly token: string;
  readonly expiresAt: number;
  /** When the client starts fetching the next one. */
  readonly renewAt: number;
}

/** Options of the Platform API client. */
export interface PlatformClientOptions {
  /** Base URL ending in `/v1`: the service's, or the SDK's `endpoint` (a Mode B customer proxy). */
  readonly baseUrl: string;
  /** The publishable key (`kit_pub_…`). */
  readonly apiKey: string;
  readonly transport: HttpTransportPort;
  /** Solves `altcha` challenges (createAltchaSolver()). */
  readonly solveChallenge: ChallengeSolver;
  /** Runs Cloudflare's Turnstile widget for `site_key` and resolves to its token; without it a `turnstile` server fails clearly. */
  readonly getTurnstileToken?: (siteKey: string, signal: AbortSignal) => Promise<string>;
  /** Attempts of GET /config and POST /session on a network error, 502 or 503. Default 3. */
  readonly maxAttempts?: number;
  /** First retry delay; doubles per retry, with jitter (×0.5–1). Default 300 ms. */
  readonly retryDelayMs?: number;
  /** Deadline of one GET /config or POST /session exchange. Default 15 000 ms. */
  readonly requestTimeoutMs?: number;
  /** Longest silence on /chat (before the headers, then between events or keep-alive comments). Default 45 000 ms, three keep-alives. */
  readonly streamIdleTimeoutMs?: number;
  /** Renew the session this long before it expires (at most half its lifetime). Default 30 000 ms. */
  readonly renewBeforeMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** The SDK's client of the Platform API (CONTRACT §3–5): config, bot-challenge sessions, streamed chat. */
export interface PlatformClient {
  readonly baseUrl: string;
  /** GET /config, retried on network errors, 502 and 503. Its bot challenge is kept for the first session. */
  getConfig(options?: { signal?: AbortSignal }): Promise<PlatformConfig>;
  /** A valid session, reused until shortly before it expires; concurrent callers share one acquisition. */
  getSession(options?: { signal?: AbortSignal }): Promise<PlatformSession>;
  /**
   * POST /chat with `stream: true`, yielding its server-sent events. A `session_required` answer renews the session
   * and tries once more; nothing else is retried. Stopping the iteration or aborting closes the connection.
   */
  chat(body: ChatRequestBody, options?: { signal?: AbortSignal }): AsyncGenerator<SseEvent, void, undefined>;
  /** POST /feedback with the session (renewed once on `session_required`); resolves to whether the comment was kept. */
  feedback(body: FeedbackBody, options?: { signal?: AbortSignal }): Promise<{ commentStored: boolean }>;
  /** Aborts everything in flight; later calls reject. */
  destroy(): void;
}

const RETRY_STATUSES = new Set([502, 503]);
/** An altcha challenge this close to its expiry is not worth solving. */
const CHALLENGE_EXPIRY_MARGIN_MS = 15_000;

/** Creates the client. Errors are KitErrors with the server's code (CONTRACT §5); aborts reject with the signal's reason. */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { transport } = options;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const retryDelayMs = options.retryDelayMs ?? 300;
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  const idleTimeoutMs = options.streamIdleTimeoutMs ?? 45_000;
  const renewBeforeMs = options.renewBeforeMs ?? 30_000;
  const now = options.now ?? Date.now;
  const root = new AbortController();
  const auth = { authorization: `Bearer ${options.apiKey}` };

  let session: PlatformSession | null = null;
  let acquiring: Promise<PlatformSession> | null = null;
  /** The challenge of the last getConfig(), not yet used: saves a round trip on the first session. */
  let spare: BotChallengeConfig | null = null;
  let sessionTtlMs = 600_000;

  async function send(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body: unknown, scope: LinkedSignal): Promise<HttpResponse> {
    try {
      return await transport.request({
        method,
        url: baseUrl + path,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: scope.signal,
      });
    } catch (err) {
      throw scope.signal.aborted ? scope.signal.reason : networkError(err);
    }
  }

  /** One JSON exchange with retries where they are safe (GET /config, POST /session). */
  async function exchange(method: 'GET' | 'POST', path: string, body: unknown, signal?: AbortSignal): Promise<{ json: unknown; headers: Readonly<Record<string, string>> }> {
    for (let attempt = 1; ; attempt++) {
      const scope = linkSignals(root.signal, signal);
      scope.arm(requestTimeoutMs, () => new KitError('network_error', 'The service did not answer in time.'));
      let retryable = false;
      try {
        const response = await send(method, path, { ...auth, accept: 'application/json' }, body, scope);
        const text = await readText(response.body);
        if (response.status >= 200 && response.status < 300) return { json: parseJson(text), headers: response.headers };
        retryable = RETRY_STATUSES.has(response.status);
        throw responseError(response, text);
      } catch (err) {
        if (scope.signal.aborted) throw scope.signal.reason; // cancelled, destroyed or timed out: never retried
        const error = networkError(err);
        if (attempt >= maxAttempts || !(retryable || error.code === 'network_error')) throw error;
      } finally {
        scope.dispose();
      }
      const wait = linkSignals(root.signal, signal);
      try {
        await sleep(retryDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2), wait.signal);
      } finally {
        wait.dispose();
      }
    }
  }

  async function fetchConfig(signal?: AbortSignal): Promise<PlatformConfig> {
    const { json } = await exchange('GET', '/config', undefined, signal);
    const config = json as PlatformConfig;
    if (!isObject(config) || !isObject(config.limits) || !isObject(config.bot_challenge) || typeof config.bot_challenge.provider !== 'string') {
      throw new KitError('internal_error', 'The service sent a malformed configuration.');
    }
    if (config.limits.session_ttl_seconds > 0) sessionTtlMs = config.limits.session_ttl_seconds * 1000;
    return config;
  }

  async function solve(bot: BotChallengeConfig, signal: AbortSignal): Promise<string | null> {
    if (bot.provider === 'none') return null;
    if (bot.provider === 'altcha') return options.solveChallenge(bot.challenge, signal);
    if (bot.provider === 'turnstile') {
      if (!options.getTurnstileToken) {
        throw new KitError('challenge_failed', 'The service asks for a Cloudflare Turnstile challenge, but this page gave Kit no getTurnstileToken hook.');
      }
      return options.getTurnstileToken(bot.site_key, signal);
    }
    throw new KitError('challenge_failed', `The service asks for an unsupported bot challenge "${String((bot as { provider: unknown }).provider).slice(0, 40)}".`);
  }

  async function acquire(): Promise<PlatformSession> {
    // Two rounds: a `challenge_failed` after solving usually means the challenge expired or a retried POST already
    // spent it, so one fresh challenge is worth a try.
    for (let round = 1; ; round++) {
      const bot = takeSpare() ?? (await fetchConfig(root.signal)).bot_challenge;
      const solution = await solve(bot, root.signal);
      try {
        const { json, headers } = await exchange('POST', '/session', { provider: bot.provider, solution }, root.signal);
        return toSession(json, headers);
      } catch (err) {
        if (round >= 2 || !isKitError(err) || err.code !== 'challenge_failed') throw err;
      }
    }
  }

  function takeSpare(): BotChallengeConfig | null {
    const bot = spare;
    spare = null;
    if (bot?.provider === 'altcha') {
      const expires = /[?&]expires=(\d+)/.exec(bot.challenge.salt);
      if (expires && Number(expires[1]) * 1000 - CHALLENGE_EXPIRY_MARGIN_MS < Date.now()) return null;
    }
    return bot;
  }

  function toSession(json: unknown, headers: Readonly<Record<string, string>>): PlatformSession {
    const body = json as { session?: unknown; expires_at?: unknown };
    const expires = Date.parse(typeof body?.expires_at === 'string' ? body.expires_at : '');
    if (typeof body?.session !== 'string' || body.session === '' || !Number.isFinite(expires)) {
      throw new KitError('internal_error', 'The service sent a malformed session.');
    }
    // Measure the lifetime on the server's clock when its Date header is visible, so a skewed visitor clock does not
    // make every session look expired (or eternal); fall back to the plan's TTL when the numbers make no sense.
    const serverNow = Date.parse(headers['date'] ?? '');
    let ttl = expires - (Number.isFinite(serverNow) ? serverNow : Date.now());
    if (!(ttl > 0 && ttl <= 2 * sessionTtlMs)) ttl = sessionTtlMs;
    const received = now();
    return { token: body.session, expiresAt: received + ttl, renewAt: received + ttl - Math.min(renewBeforeMs, ttl / 2) };
  }

  async function currentSession(signal: AbortSignal | undefined, stale?: string): Promise<PlatformSession> {
    if (root.signal.aborted) throw root.signal.reason;
    if (stale !== undefined && session?.token === stale) session = null;
    const held = session;
    if (held && now() < held.renewAt) return held;
    acquiring ??= acquire().then(
      (fresh) => {
        acquiring = null;
        if (!root.signal.aborted) session = fresh;
        return fresh;
      },
      (err: unknown) => {
        acquiring = null;
        throw err;
      },
    );
    try {
      return await untilAborted(acquiring, signal);
    } catch (err) {
      // A renewal that fails while the old session is still valid is not worth failing the question for.
      if (held && now() < held.expiresAt && !signal?.aborted && !root.signal.aborted) return held;
      throw err;
    }
  }

  async function* chat(body: ChatRequestBody, chatOptions: { signal?: AbortSignal } = {}): AsyncGenerator<SseEvent, void, undefined> {
    const scope = linkSignals(root.signal, chatOptions.signal);
    const stalled = (): KitError => new KitError('network_error', 'The answer stream stalled.');
    try {
      let response: HttpResponse | undefined;
      for (let attempt = 1; !response; attempt++) {
        const current = await currentSession(scope.signal, undefined);
        scope.arm(idleTimeoutMs, stalled);
        const answer = await send('POST', '/chat', { ...auth, 'kit-session': current.token, accept: 'text/event-stream' }, { ...body, stream: true }, scope);
        if (answer.status >= 200 && answer.status < 300) {
          response = answer;
          continue;
        }
        const error = responseError(answer, await readText(answer.body));
        if (error.code !== 'session_required' || attempt >= 2) throw error;
        // The server no longer knows this session (expired early, restarted, key rotated): renew once.
        if (session?.token === current.token) session = null;
      }
      if (!/^text\/event-stream/i.test(response.headers['content-type'] ?? '')) {
        throw new KitError('internal_error', 'The service did not answer with an event stream.');
      }
      const bytes = typeof response.body === 'string' ? [new TextEncoder().encode(response.body)] : response.body;
      const events = readSse(toAsyncIterable(bytes), { signal: scope.signal, onComment: () => scope.arm(idleTimeoutMs, stalled) });
      for await (const event of events) {
        scope.arm(idleTimeoutMs, stalled);
        yield event;
      }
    } catch (err) {
      throw scope.signal.aborted ? scope.signal.reason : networkError(err);
    } finally {
      scope.dispose();
    }
  }

  async function feedback(body: FeedbackBody, callOptions: { signal?: AbortSignal } = {}): Promise<{ commentStored: boolean }> {
    for (let attempt = 1; ; attempt++) {
      const current = await currentSession(callOptions.signal);
      const scope = linkSignals(root.signal, callOptions.signal);
      scope.arm(requestTimeoutMs, () => new KitError('network_error', 'The service did not answer in time.'));
      try {
        const response = await send('POST', '/feedback', { ...auth, 'kit-session': current.token, accept: 'application/json' }, body, scope);
        const text = await readText(response.body);
        if (response.status >= 200 && response.status < 300) return { commentStored: (parseJson(text) as { comment_stored?: unknown }).comment_stored === true };
        const error = responseError(response, text);
        if (error.code !== 'session_required' || attempt >= 2) throw error;
        if (session?.token === current.token) session = null;
      } catch (err) {
        throw scope.signal.aborted ? scope.signal.reason : networkError(err);
      } finally {
        scope.dispose();
      }
    }
  }

  return {
    baseUrl,
    feedback,
    async getConfig(callOptions = {}) {
      if (root.signal.aborted) throw root.signal.reason;
      const config = await fetchConfig(callOptions.signal);
      spare = config.bot_challenge;
      return config;
    },
    getSession: (callOptions = {}) => currentSession(callOptions.signal),
    chat,
    destroy() {
      if (root.signal.aborted) return;
      root.abort(new DOMException('The Kit client was destroyed.', 'AbortError'));
      session = null;
      spare = null;
    },
  };
}

async function readText(body: AsyncIterable<Uint8Array> | string): Promise<string> {
  if (typeof body === 'string') return body;
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new KitError('internal_error', 'The service sent a malformed JSON body.');
  }
}

function isObject(value: unknown): value is Record<string, unknown> & object {
  return typeof value === 'object' && value !== null;
}

function toAsyncIterable(bytes: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  if (Symbol.asyncIterator in bytes) return bytes;
  return (async function* () {
    yield* bytes;
  })();
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return untilAborted(new Promise<void>((resolve) => setTimeout(resolve, ms)), signal);
}
