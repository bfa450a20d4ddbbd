import { inject, injectable } from 'inversify';
import type { Logger } from 'pino';
import { latencyMarks } from '../../adapters/node/latency-marks.js';
import type { ChatLimiter } from '../../adapters/node/pg-chat-limiter.js';
import { isKitError, KitError, type ServerErrorCode } from '../../core/errors/index.js';
import { checkGrounding, refusalMessage } from '../../core/grounding/index.js';
import type { InferenceEvent, InferencePort } from '../../core/ports/inference.port.js';
import type { Redactor } from '../../core/redaction/index.js';
import { estimateTokens } from '../../core/retrieval/index.js';
import type { SourcePage } from '../../core/sources.js';
import { loadLanguageOf, prepareCorpus, type Corpus } from '../../core/text/index.js';
import type { KeyAuth } from '../auth/auth-context.js';
import type { ServerConfig } from '../config.js';
import type { PlanLimits } from '../plans.js';
import { TOKENS, type Clock } from '../tokens.js';
import { rateLimited } from './rate-limit-refusal.js';
import { ok, refuse, type ServiceResult } from './service-result.js';
import type { SessionTokens } from './session-tokens.js';

/** One turn of CONTRACT §4's `messages`. */
export interface ChatMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** The validated body of `POST /chat`. */
export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly sources: readonly SourcePage[];
  readonly model: string;
  readonly stream: boolean;
}

/** What `/chat` sends, in order (CONTRACT §4); the route frames them as SSE or gathers them into one JSON answer. */
export type ChatEvent =
  | { readonly type: 'start'; readonly requestId: string; readonly model: string }
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'citation'; readonly index: number; readonly url: string; readonly title: string }
  | { readonly type: 'refusal'; readonly message: string }
  /**
   * `found: false`: the engine found no answer in the sources (the inference port's `done.found`). Only the owner's
   * log reads it (outcome `not_found`); the wire's `done` and JSON answer leave it out (docs/api.md), and the chat is
   * metered and billed as any answer.
   */
  | { readonly type: 'done'; readonly finishReason: 'stop' | 'length' | 'refused'; readonly usage: { readonly inputTokens: number; readonly outputTokens: number }; readonly found?: false }
  | { readonly type: 'error'; readonly code: ServerErrorCode; readonly message: string };

/** Where the events go. The service decides when the response is committed (`open`). */
export interface ChatSink {
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** Commits the response (status 200 and headers), right before the first event. */
  open(): void;
  /** Delivers one event; resolves when the transport can take more (back-pressure). */
  send(event: ChatEvent): Promise<void>;
  /** Finishes the response (also after a disconnect). */
  end(): Promise<void>;
}

/** A chat that passed every check before the model: what `run` needs. */
export interface AdmittedChat {
  readonly auth: KeyAuth;
  readonly plan: PlanLimits;
  readonly question: string;
  readonly history: readonly ChatMessage[];
  readonly sources: readonly SourcePage[];
  /** The site owner's instructions for model engines (assistant settings, issue 13); set by the chat route. */
  readonly instructions?: string | null;
  /** The key's window after this request, for the RateLimit headers of the answer. */
  readonly rateLimit: { readonly limit: number; readonly remaining: number; readonly resetSeconds: number };
  /** The request id its usage row was written under at admission. */
  readonly requestId: string;
  readonly admittedAt: Date;
  /** Tokens reserved against the month: the input estimate plus the plan's output cap. */
  readonly reservedTokens: number;
  /** The work done while the admission statement was in the database (see `ChatService.admit`); absent = none. */
  readonly speculation?: Speculation;
}

/**
 * What `admit` computed while its statement was in the database, for an organisation whose last admission in this
 * process was admitted: the gate's verdict on an already prepared corpus and, for the built-in engine, its answer
 * started. Only pure local work: never a corpus build (a cache miss), never a remote model.
 */
export interface Speculation {
  /** The chat's controller from the start: the engine started early is given its signal (see `run`). */
  readonly controller: AbortController;
  /** Null when nothing was computed (the corpus was not cached, or its preparation failed: the chat does it again). */
  readonly head: Promise<SpeculativeHead | null>;
}

interface SpeculativeHead {
  readonly prepared: Prepared;
  readonly grounded: boolean;
  /** The built-in engine's answer, started on the prepared sources (grounded questions only). */
  readonly engine: { readonly iterator: AsyncIterator<InferenceEvent>; readonly first: Promise<IteratorResult<InferenceEvent>> } | null;
}

/** How a chat ended, known at its one settle point (the usage row, and hooks such as a question log, read it). */
export interface ChatOutcome {
  readonly status: 'answered' | 'refused' | 'error';
  readonly finishReason: 'stop' | 'length' | 'refused' | null;
  /** The error sent, or `client_closed` when the visitor left before the end. */
  readonly errorCode: ServerErrorCode | 'client_closed' | null;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** 1-based indexes into the sources of the citations sent. */
  readonly citations: readonly number[];
  readonly latencyMs: number;
}

/**
 * Tokens added to the input estimate of a reservation for the grounded prompt's own instructions and framing
 * (core/answer/grounded-prompt: about 150 tokens), so the reservation covers what an OpenAI-compatible backend counts.
 */
export const PROMPT_OVERHEAD_TOKENS = 256;
/** A reservation nobody settled (its process was killed) is released by the sweep after this long. */
export const RESERVATION_TTL_MS = 15 * 60_000;
/** Prepared corpora kept, keyed by the sources' text: at most this many ... */
const CORPUS_CACHE_ENTRIES = 256;
/** ... and this many characters of source text in all. */
const CORPUS_CACHE_CHARS = 16_000_000;
/** Organisations whose last admission in this process was admitted (the hint that allows speculation): at most this many. */
const ADMITTED_HINTS = 10_000;

/**
 * The reservation's input part: ≈ 3 characters a token (more than the 4 of English prose, so text in other scripts
 * and code stays inside it), plus the prompt overhead.
 */
export function reservationInputTokens(chars: number): number {
  return Math.ceil(chars / 3) + PROMPT_OVERHEAD_TOKENS;
}

interface Prepared {
  readonly sources: readonly SourcePage[];
  readonly corpus: Corpus;
  readonly chars: number;
}

/**
 * How long `/chat` waits for the engine's first piece before committing the stream: an engine that fails sooner
 * becomes a plain JSON error with its status; one that is slower gets the SSE headers and keep-alives meanwhile.
 */
export const HEAD_START_MS = 5_000;
/** After the grace period, how long the drain waits for aborted streams to write their usage rows. */
const ABORT_SETTLE_MS = 5_000;

class ShutdownAbort extends Error {
  override readonly name = 'ShutdownAbort';
}

type Meter = {
  model: string;
  status: ChatOutcome['status'];
  finishReason: ChatOutcome['finishReason'];
  errorCode: ChatOutcome['errorCode'];
  inputTokens: number;
  outputTokens: number;
  citations: number[];
};

interface InFlight {
  readonly controller: AbortController;
  readonly orgId: string;
  /** The chat's settlement once its answer has ended (written after the response, see `run`). */
  settling: Promise<void> | null;
  readonly finished: Promise<void>;
}

/** The abort reason of a chat's signal once the chat is over (one object: nothing to build per chat). */
const CHAT_FINISHED = new Error('chat finished');

/** The prepared-corpus LRU's key: the sources' text itself (the Map hashes and compares it), no digest per request. */
function corpusKey(raw: readonly SourcePage[]): string {
  let key = '';
  for (const s of raw) key += `${s.url}\u0000${s.title}\u0000${s.text}\u0001`;
  return key;
}

/**
 * `POST /chat` (CONTRACT §4, §6): checks sizes, the plan, the session and the limits before any work; masks the
 * sources when the operator asks; refuses ungrounded questions without calling the model; streams the engine's
 * answer with citations; and writes exactly one usage row per chat that reached the gate — whether it finished,
 * was refused, failed mid-stream or lost its visitor. In-flight chats are tracked so SIGTERM can drain them.
 */
@injectable()
export class ChatService {
  readonly #inFlight = new Set<InFlight>();
  readonly #corpora = new Map<string, { readonly prepared: Promise<Prepared>; readonly chars: number }>();
  #corpusChars = 0;
  /** Organisations whose last admission here was admitted, oldest first (bounded: ADMITTED_HINTS). */
  readonly #admittedOrgs = new Set<string>();
  #speculated = 0;

  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.ChatLimiter) private readonly limiter: ChatLimiter,
    @inject(TOKENS.SessionTokens) private readonly sessions: SessionTokens,
    @inject(TOKENS.Inference) private readonly inference: InferencePort,
    @inject(TOKENS.SourceRedactor) private readonly redactor: Redactor | null,
  ) {}

  /** The model reported in `start` events and usage rows. */
  get model(): string {
    return this.inference.model;
  }

  /**
   * Every check before the model, cheapest first: plan mode, session, sizes, then ONE database statement that counts
   * the key's, the session's and the organisation's one-minute windows and reserves the request's worst case (input
   * estimate + the plan's output cap) against what is left of the month, writing its usage row (the statement is
   * shared with the organisation's admissions that arrive together: ChatLimiter.admit).
   */
  async admit(auth: KeyAuth, request: ChatRequest, sessionToken: string | null, origin: string | null, requestId: string, instructions: string | null = null): Promise<ServiceResult<AdmittedChat>> {
    const plan = this.config.plans[auth.orgTier];
    const now = this.clock();
    if (plan.mode === 'local') return refuse('forbidden', `The ${auth.orgTier} plan answers on the visitor's device only; /chat is not part of it.`);

    let sessionId: string | null = null;
    if (auth.keyKind === 'publishable') {
      if (!sessionToken) return refuse('session_required', 'Send the Kit-Session header: solve the bot challenge at POST /v1/session first.');
      const session = this.sessions.verify(sessionToken, { keyId: auth.keyId, origin }, now);
      if (!session.ok) return refuse('session_required', 'The session is invalid, expired, or was issued for another key or origin; get a new one at POST /v1/session.');
      sessionId = session.value.sessionId;
    }

    const last = request.messages[request.messages.length - 1];
    if (!last || last.role !== 'user') return refuse('invalid_request', 'messages: the last message must be the user\'s question');
    if (last.content.trim() === '') return refuse('invalid_request', 'messages: the question is empty');
    if (last.content.length > plan.maxQuestionChars) return refuse('payload_too_large', `The question is longer than ${plan.maxQuestionChars} characters.`);
    let textChars = 0;
    let sourceChars = 0;
    for (const s of request.sources) {
      textChars += s.text.length;
      sourceChars += s.text.length + s.title.length;
    }
    if (textChars > plan.maxContextChars) return refuse('payload_too_large', `The sources hold more than ${plan.maxContextChars} characters of text.`);
    const history = request.messages.slice(0, -1);
    let historyChars = 0;
    for (const m of history) historyChars += m.content.length;
    if (historyChars > plan.maxContextChars) return refuse('payload_too_large', `The earlier messages hold more than ${plan.maxContextChars} characters.`);

    const reservedTokens = reservationInputTokens(last.content.length + historyChars + sourceChars) + plan.maxOutputTokens;
    const admitting = this.limiter.admit({
      orgId: auth.orgId,
      keyId: auth.keyId,
      sessionId,
      now,
      limits: { keyPerMinute: plan.requestsPerMinute, sessionPerMinute: plan.sessionRequestsPerMinute, orgPerMinute: plan.orgRequestsPerMinute, monthlyTokens: plan.monthlyTokens },
      reserveTokens: reservedTokens,
      requestId,
      model: this.inference.model,
      expiresAt: new Date(now.getTime() + RESERVATION_TTL_MS),
    });
    // While the statement is in the database, the work that does not depend on it — only for an organisation whose
    // last admission here was admitted, so an organisation over its limits costs nothing more than the statement.
    const speculation = this.#admittedOrgs.has(auth.orgId) ? this.#speculate(last.content, history, request.sources, plan.maxOutputTokens, instructions) : undefined;
    let admission: Awaited<typeof admitting>;
    try {
      admission = await admitting;
    } catch (err) {
      if (speculation) this.#discard(speculation);
      throw err;
    }
    this.#admittedOrgs.delete(auth.orgId);
    if (admission.admitted) {
      this.#admittedOrgs.add(auth.orgId); // most recent last
      if (this.#admittedOrgs.size > ADMITTED_HINTS) this.#admittedOrgs.delete(this.#admittedOrgs.values().next().value!);
    } else if (speculation) this.#discard(speculation);
    const windowState = (count: number, limit: number) => ({ allowed: count <= limit, count, limit, remaining: Math.max(0, limit - count), resetAt: admission.windowResetAt });
    const byKey = windowState(admission.keyCount, plan.requestsPerMinute);
    if (!admission.admitted) {
      if (!byKey.allowed) return rateLimited(byKey, now, `This key is over its ${plan.requestsPerMinute} requests per minute; retry later.`);
      if (admission.sessionCount !== null) {
        const bySession = windowState(admission.sessionCount, plan.sessionRequestsPerMinute);
        if (!bySession.allowed) return rateLimited(bySession, now, `Too many questions from this browser in a minute (at most ${plan.sessionRequestsPerMinute}).`);
      }
      const byOrg = windowState(admission.orgCount, plan.orgRequestsPerMinute);
      if (!byOrg.allowed) return rateLimited(byOrg, now, `The organization is over its ${plan.orgRequestsPerMinute} requests per minute over all its keys; retry later.`);
      const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
      const wait = Math.max(1, Math.ceil((nextMonth - now.getTime()) / 1000));
      const left = Math.max(0, plan.monthlyTokens - admission.tokensUsed - admission.tokensReserved);
      const message =
        admission.tokensUsed >= plan.monthlyTokens
          ? `The organization used its ${plan.monthlyTokens} tokens of this month; upgrade the plan or wait for the next month.`
          : `This request may use up to ${reservedTokens} tokens (its input and the plan's ${plan.maxOutputTokens}-token answer cap) and ${left} of the organization's ${plan.monthlyTokens} monthly tokens are left (chats in flight hold some); send less context, retry shortly, or upgrade the plan.`;
      return refuse('quota_exceeded', message, { retry_after: wait, ratelimit_limit: plan.monthlyTokens, ratelimit_remaining: left, ratelimit_reset: wait });
    }
    const resetSeconds = Math.max(1, Math.ceil((admission.windowResetAt.getTime() - now.getTime()) / 1000));
    return ok({
      auth,
      plan,
      question: last.content,
      history,
      sources: request.sources,
      instructions,
      rateLimit: { limit: plan.requestsPerMinute, remaining: byKey.remaining, resetSeconds },
      requestId,
      admittedAt: now,
      reservedTokens,
      ...(speculation ? { speculation } : {}),
    });
  }

  /** Gate verdicts computed while an admission statement was in the database (a diagnostic, and for tests). */
  get speculated(): number {
    return this.#speculated;
  }

  /**
   * Starts, after the admission statement has gone out (setImmediate), the chat's pure local work on a corpus already
   * prepared: the gate's verdict and, for the built-in engine, its answer. A cache miss builds nothing.
   */
  #speculate(question: string, history: readonly ChatMessage[], raw: readonly SourcePage[], maxOutputTokens: number, instructions: string | null): Speculation {
    const controller = new AbortController();
    const head = new Promise<void>((resolve) => setImmediate(resolve)).then(async (): Promise<SpeculativeHead | null> => {
      if (controller.signal.aborted) return null;
      const cached = this.#cachedCorpus(raw);
      if (!cached) return null;
      const prepared = await cached;
      await loadLanguageOf(question, prepared.corpus.language);
      if (controller.signal.aborted) return null;
      this.#speculated++;
      const grounded = checkGrounding(prepared.corpus, question).grounded;
      if (!grounded || this.config.inference !== null) return { prepared, grounded, engine: null };
      const iterator = this.inference.answer({ question, history, sources: prepared.sources, signal: controller.signal, maxOutputTokens, instructions })[Symbol.asyncIterator]();
      const first = iterator.next();
      first.catch(() => undefined); // awaited by the chat's stream, or dropped with it
      return { prepared, grounded, engine: { iterator, first } };
    }).catch(() => null); // the chat prepares its corpus itself and meets the same failure there
    return { controller, head };
  }

  /** Drops what a refused (or failed) admission speculated. */
  #discard(speculation: Speculation): void {
    speculation.controller.abort(CHAT_FINISHED);
    void speculation.head.then((head) => head?.engine?.iterator.return?.(undefined)?.catch(() => undefined));
  }

  /** The prepared corpus of these sources when the LRU holds it (touched as most recently used); never builds one. */
  #cachedCorpus(raw: readonly SourcePage[]): Promise<Prepared> | null {
    return this.#cached(corpusKey(raw));
  }

  /** The LRU's entry for `key`, moved to the most recently used end; null when absent. */
  #cached(key: string): Promise<Prepared> | null {
    const hit = this.#corpora.get(key);
    if (!hit) return null;
    this.#corpora.delete(key);
    this.#corpora.set(key, hit);
    return hit.prepared;
  }

  /**
   * Answers an admitted chat into `sink` and meters it. Throws a KitError only before `sink.open()` (the engine
   * failed before its first piece): the route then answers a plain JSON error. Resolves once the answer has ended
   * (the sink too): the usage row's settlement runs after it, off the response path, batched with the
   * organisation's other settlements; `drain` and {@link settledFor} wait for it.
   */
  async run(chat: AdmittedChat, requestId: string, sink: ChatSink): Promise<void> {
    const controller = chat.speculation?.controller ?? new AbortController();
    const onClientGone = (): void => controller.abort(sink.signal.reason);
    if (sink.signal.aborted) onClientGone();
    else sink.signal.addEventListener('abort', onClientGone, { once: true });
    let finish!: () => void;
    const entry: InFlight = { controller, orgId: chat.auth.orgId, settling: null, finished: new Promise<void>((resolve) => (finish = resolve)) };
    this.#inFlight.add(entry);
    try {
      await this.#answer(chat, requestId, sink, controller, entry);
    } finally {
      sink.signal.removeEventListener('abort', onClientGone);
      controller.abort(CHAT_FINISHED);
      // The chat stays in flight (for drain and for readers of its organisation's usage) until its row is settled.
      const done = (): void => {
        this.#inFlight.delete(entry);
        finish();
      };
      if (entry.settling) void entry.settling.then(done);
      else done();
    }
  }

  /**
   * Resolves once every chat of `orgId` (without it: of every organisation) whose answer has ended in this process
   * has its usage row settled: a usage reader on this replica then sees its own answered chats settled (the
   * settlement follows the response, see `run`).
   */
  async settledFor(orgId?: string): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const entry of this.#inFlight) if ((orgId === undefined || entry.orgId === orgId) && entry.settling) pending.push(entry.settling);
    if (pending.length > 0) await Promise.all(pending);
  }

  /** Chats in flight now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Waits up to `graceMs` for in-flight chats to end, then cuts the rest (they send an error event and write their
   * usage row with what was streamed). Resolves when every chat has finished, or after a short settle bound.
   */
  async drain(graceMs: number): Promise<void> {
    const pending = (): Promise<unknown> => Promise.allSettled([...this.#inFlight].map((c) => c.finished));
    if (this.#inFlight.size === 0) return;
    this.logger.info({ streams: this.#inFlight.size, grace_ms: graceMs }, 'draining chat streams');
    let timer: NodeJS.Timeout | undefined;
    const expired = await Promise.race([pending().then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)))]);
    clearTimeout(timer);
    if (!expired) return;
    this.logger.warn({ streams: this.#inFlight.size }, 'grace period over: cutting chat streams');
    for (const chat of this.#inFlight) chat.controller.abort(new ShutdownAbort('The server is shutting down.'));
    await Promise.race([pending(), new Promise((resolve) => setTimeout(resolve, ABORT_SETTLE_MS).unref())]);
  }

  async #answer(chat: AdmittedChat, requestId: string, sink: ChatSink, controller: AbortController, entry: InFlight): Promise<void> {
    const model = this.inference.model;
    const startedAt = performance.now();
    latencyMarks.mark?.(requestId, 'run');
    const meter: Meter = { model, status: 'error', finishReason: null, errorCode: null, inputTokens: 0, outputTokens: 0, citations: [] };
    try {
      const head = chat.speculation ? await chat.speculation.head : null;
      let prepared: Prepared;
      let grounded: boolean;
      if (head) {
        prepared = head.prepared;
        grounded = head.grounded;
      } else {
        prepared = await this.#prepare(chat.sources);
        // The same gate as the SDK's (sdk/runtime.ts): the corpus with its language's pack, and the question's language.
        await loadLanguageOf(chat.question, prepared.corpus.language);
        grounded = checkGrounding(prepared.corpus, chat.question).grounded;
      }
      const sources = prepared.sources;
      if (!grounded) {
        meter.status = 'refused';
        meter.finishReason = 'refused';
        sink.open();
        await sink.send({ type: 'start', requestId, model });
        await sink.send({ type: 'refusal', message: refusalMessage() });
        await sink.send({ type: 'done', finishReason: 'refused', usage: { inputTokens: 0, outputTokens: 0 } });
        return;
      }
      // Needed only when the engine's own count is not used (the cap cut it, or it failed mid-answer): built then.
      const inputEstimate = (): number => estimateTokens(chat.question + chat.history.map((m) => m.content).join('') + sources.map((s) => s.title + s.text).join(''));
      // An answer started early is used unless the visitor left meanwhile: the engine then starts (and stops) as before.
      let started = head?.engine ?? null;
      if (started && controller.signal.aborted) {
        void started.iterator.return?.(undefined)?.catch(() => undefined);
        started = null;
      }
      await this.#stream(chat, sources, requestId, sink, controller, meter, inputEstimate, started);
    } finally {
      // The answer is final: the settlement goes to its (batched) statement and the response ends without waiting
      // for it. The reservation stays held until the statement commits, so the month is never over-spent; a process
      // killed in between leaves the row `reserved` until the sweep releases it (RESERVATION_TTL_MS).
      latencyMarks.mark?.(requestId, 'answered');
      entry.settling = this.#settle(chat, { ...meter, latencyMs: performance.now() - startedAt });
      await sink.end().catch(() => undefined);
    }
  }

  /**
   * The sources as the gate and the engine see them (masked when the operator asks) and their prepared corpus, from
   * an LRU keyed by the sources' text: a visitor's conversation, and every visitor of one page, send the
   * same sources, which are then masked and indexed once.
   */
  #prepare(raw: readonly SourcePage[]): Promise<Prepared> {
    // The cache's character budget counts the key (the sources' text itself) with the entry.
    const key = corpusKey(raw);
    const hit = this.#cached(key);
    if (hit) return hit;
    let chars = 0;
    for (const s of raw) chars += s.url.length + s.title.length + s.text.length;
    const redactor = this.redactor;
    const prepared = (async (): Promise<Prepared> => {
      const sources = redactor ? raw.map((s) => ({ url: s.url, title: redactor.redact(s.title).text, text: redactor.redact(s.text).text })) : raw;
      return { sources, corpus: await prepareCorpus(sources), chars };
    })();
    const entry = { prepared, chars: chars + key.length };
    prepared.catch(() => {
      if (this.#corpora.get(key) !== entry) return;
      this.#corpora.delete(key);
      this.#corpusChars -= entry.chars;
    });
    this.#corpora.set(key, entry);
    this.#corpusChars += entry.chars;
    for (const [k, v] of this.#corpora) {
      if (this.#corpora.size <= CORPUS_CACHE_ENTRIES && this.#corpusChars <= CORPUS_CACHE_CHARS) break;
      if (k === key) continue;
      this.#corpora.delete(k);
      this.#corpusChars -= v.chars;
    }
    return prepared;
  }

  /**
   * Streams the engine's answer. The engine is given the chat's own signal (`controller`: aborted when the visitor
   * leaves, at shutdown, when the output cap is reached, and once the chat is over) — one controller per chat.
   */
  async #stream(chat: AdmittedChat, sources: readonly SourcePage[], requestId: string, sink: ChatSink, controller: AbortController, meter: Meter, inputEstimate: () => number, started: SpeculativeHead['engine']): Promise<void> {
    const maxOutputTokens = chat.plan.maxOutputTokens;
    // The cap holds on the stream whatever the engine does: at most this many characters (≈ 4 a token) are sent.
    const maxOutputChars = maxOutputTokens * 4;
    const signal = controller.signal;
    const iterator = started?.iterator ?? this.inference.answer({ question: chat.question, history: chat.history, sources, signal, maxOutputTokens, instructions: chat.instructions ?? null })[Symbol.asyncIterator]();
    let streamed = '';
    let opened = false;
    const cited = new Set<number>();
    try {
      let next = started?.first ?? iterator.next();
      next.catch(() => undefined); // awaited below; only its rejection before the race settles must not go unhandled
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([next, new Promise<void>((resolve) => (timer = setTimeout(resolve, HEAD_START_MS)))]);
      } finally {
        clearTimeout(timer);
      }
      sink.open();
      opened = true;
      await sink.send({ type: 'start', requestId, model: meter.model });
      for (;;) {
        const step = await next;
        if (step.done) throw new KitError('upstream_unavailable', 'The inference backend ended the answer without finishing it.');
        const event: InferenceEvent = step.value;
        if (event.type === 'delta') {
          const room = maxOutputChars - streamed.length;
          const text = event.text.length > room ? event.text.slice(0, room) : event.text;
          streamed += text;
          if (text.length > 0) await sink.send({ type: 'delta', text });
          if (text.length < event.text.length) {
            // The engine ignored max_tokens: cut it off at the plan's cap, as if it had honoured it.
            controller.abort(new Error('output cap reached'));
            meter.status = 'answered';
            meter.finishReason = 'length';
            meter.inputTokens = inputEstimate();
            meter.outputTokens = Math.min(maxOutputTokens, estimateTokens(streamed));
            await sink.send({ type: 'done', finishReason: 'length', usage: { inputTokens: meter.inputTokens, outputTokens: meter.outputTokens } });
            return;
          }
        } else if (event.type === 'citation') {
          const source = sources[event.index - 1];
          if (source && !cited.has(event.index)) {
            cited.add(event.index);
            meter.citations.push(event.index);
            await sink.send({ type: 'citation', index: event.index, url: source.url, title: source.title });
          }
        } else {
          meter.status = 'answered';
          meter.finishReason = event.finishReason;
          meter.inputTokens = event.usage.inputTokens;
          // An engine counting more than the cap it was given is billed the cap: the answer was held to it.
          meter.outputTokens = Math.min(maxOutputTokens, event.usage.outputTokens);
          const usage = { inputTokens: meter.inputTokens, outputTokens: meter.outputTokens };
          await sink.send(event.found === false ? { type: 'done', finishReason: event.finishReason, usage, found: false } : { type: 'done', finishReason: event.finishReason, usage });
          return;
        }
        next = iterator.next();
      }
    } catch (err) {
      // What the visitor saw is what is metered: the prompt went upstream once output began, and the output so far.
      if (streamed.length > 0) {
        meter.inputTokens = inputEstimate();
        meter.outputTokens = Math.min(maxOutputTokens, estimateTokens(streamed));
      }
      if (sink.signal.aborted && !(signal.reason instanceof ShutdownAbort)) {
        meter.errorCode = 'client_closed';
        return; // the visitor left: nobody to tell
      }
      const { code, message } = this.#describe(err, requestId, signal);
      meter.errorCode = code;
      if (!opened) throw new KitError(code, message);
      await sink.send({ type: 'error', code, message }).catch(() => undefined);
    } finally {
      void iterator.return?.(undefined)?.catch(() => undefined);
    }
  }

  #describe(err: unknown, requestId: string, signal: AbortSignal): { code: ServerErrorCode; message: string } {
    if (signal.reason instanceof ShutdownAbort) return { code: 'upstream_unavailable', message: 'The server is restarting; ask again.' };
    if (isKitError(err) && err.code === 'upstream_unavailable') return { code: 'upstream_unavailable', message: err.message };
    this.logger.error({ request_id: requestId, err: { type: (err as Error)?.name, message: (err as Error)?.message, stack: (err as Error)?.stack } }, 'chat failed');
    return { code: 'internal_error', message: 'Something went wrong on our side.' };
  }

  /**
   * THE settle point of a chat: its outcome is final here (answered, refused or error; tokens; citations; latency).
   * The usage row written at admission takes the real figures and the month's reservation is released, in one
   * statement shared with the chats of the organisation that end in the same tick. Hooks that need the outcome
   * (a question log) belong here. Never rejects; the response does not wait for it.
   */
  async #settle(chat: AdmittedChat, outcome: ChatOutcome): Promise<void> {
    const settlement = {
      orgId: chat.auth.orgId,
      requestId: chat.requestId,
      admittedAt: chat.admittedAt,
      model: outcome.model,
      inputTokens: outcome.inputTokens,
      outputTokens: outcome.outputTokens,
      refused: outcome.status === 'refused',
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.limiter.settle(settlement);
        return;
      } catch (err) {
        if (attempt >= 2) {
          // The reservation stays held until the sweep releases it (RESERVATION_TTL_MS): never an overshoot.
          this.logger.error({ request_id: chat.requestId, err: { message: (err as Error).message } }, 'could not settle usage');
          return;
        }
      }
    }
  }
}
