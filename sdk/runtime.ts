/**
 * The assistant runtime, loaded as a lazy chunk by sdk/index.ts: reads the page (or site), redacts it, builds the
 * corpus, chooses the engine, and answers. The order is the privacy contract (issue 6 §4): redaction runs on page
 * text before anything reaches a model or leaves the page; the grounding gate runs before any engine, so a refused
 * question makes no network request at all.
 */
import { MODEL_OPTIONS, type KitConfig, type ModelOption, type ModelSize } from '../core/config/index.js';
import { isKitError, KitError } from '../core/errors/index.js';
import { checkGrounding } from '../core/grounding/index.js';
import { selectMode, type DeviceProfile, type PlanModes } from '../core/mode/index.js';
import type { HttpTransportPort } from '../core/ports/http-transport.port.js';
import type { ChatTurn, InferencePort } from '../core/ports/inference.port.js';
// The retriever and source selection only: the extractive answerer is a lazy chunk, loaded when it is the engine.
import { createRetriever, type Retriever } from '../core/retrieval/retriever.js';
import { selectSources as selectPassages } from '../core/retrieval/select-sources.js';
import type { Citation, SourcePage } from '../core/sources.js';
import { loadLanguageOf, prepareCorpus } from '../core/text/index.js';
import { extractMainContent } from '../adapters/browser/extract-main-content.js';
import { createAltchaSolver } from '../adapters/remote/altcha-solver.js';
import { createFetchTransport } from '../adapters/remote/fetch-transport.js';
import { linkSignals } from '../adapters/remote/linked-signal.js';
import { createPlatformClient, type PlatformClient, type PlatformConfig } from '../adapters/remote/platform-client.js';
import { createRemoteInference, type RemoteInferencePort } from '../adapters/remote/remote-inference.js';
import type { Assistant, KitHostOptions, StartAssistant } from './assistant.js';
import { SETUP_CODES } from './setup-codes.js';
import { DEFAULT_REFUSAL_MESSAGE } from '../core/config/defaults.js';
import { createQuestionReporter, type QuestionReporter } from './insights.js';
import type { Answer, ContextStats, KitEvents } from './types.js';

/** Passages sent with a question: enough to hold an answer and its context, small enough for a local model. */
export const MAX_SOURCES = 6;
/** Characters of sources per question (the plan's `max_context_chars` caps it further for remote). */
export const MAX_SOURCE_CHARS = 12_000;

type Engine = { kind: 'remote'; port: RemoteInferencePort } | { kind: 'local' | 'extractive'; port: InferencePort };
type Emit = <K extends keyof KitEvents>(event: K, payload: KitEvents[K]) => void;

interface Context {
  url: string;
  pages: SourcePage[];
  stats: ContextStats;
  retriever: Retriever;
  redacted: Partial<Record<string, number>>;
}

/** Starts the assistant for `config` on this page. Rejects with a KitError when the page cannot be read at all. */
export const startAssistant: StartAssistant = async (config, host, { emit, signal, conversationId }) => {
  const base = (host.transport as HttpTransportPort | undefined) ?? createFetchTransport();
  // The console's preview on the owner's own site (docs/console.md): a page opened as `…#kit-preview=<token>` sends
  // the token as `Kit-Preview`; `/config` then shows the owner's unsaved settings (that key and origin only).
  const preview = /kit-preview=([\w.-]+)/.exec(globalThis.location?.hash)?.[1];
  const transport: HttpTransportPort = preview ? { request: (r) => base.request({ ...r, headers: { ...r.headers, 'kit-preview': preview } }) } : base;
  const client = createPlatformClient({ baseUrl: config.endpoint ?? defaultEndpoint(), apiKey: config.apiKey, transport, solveChallenge: createAltchaSolver() });
  let reporter: QuestionReporter | undefined;
  // The reporter sends what is queued first, while the client still holds the page's session.
  signal.addEventListener('abort', () => (reporter?.destroy(), client.destroy()), { once: true });

  // The three slow starts run together: the plan, the device, and the page.
  // The plan is read even for local mode: it says which modes the key may use, and it checks the key and origin.
  // A key or origin the service refuses stops the start (and the page reading) with one clear console error; an
  // unreachable service only costs the remote engine.
  const setup = linkSignals(signal);
  let misconfigured: KitError | null = null;
  const planPromise = client.getConfig({ signal }).then((c) => c, async (err) => {
    if (signal.aborted) throw err;
    if (isKitError(err) && SETUP_CODES.has(err.code)) {
      // The explanations are a chunk of their own: only misconfigured pages load them.
      const { setupError } = await import(/* webpackChunkName: "kit-setup-error" */ './setup-error.js');
      misconfigured = setupError(err, config.apiKey);
      console.error(`Kit: ${misconfigured.message}`);
      setup.abort(misconfigured);
      return null;
    }
    emit('error', toEvent(err));
    return null;
  });
  // The WebGPU probe runs only when its verdict decides something (issue 10.3): Chromium logs "No available
  // adapters." whenever requestAdapter() finds none, so a page whose visitor asks nothing must not call it.
  const probe = (): Promise<DeviceProfile> => import(/* webpackChunkName: "kit-probe" */ '../adapters/browser/webgpu-probe.js').then((m) => m.probeDevice({ benchmark: config.gpuBenchmark, signal, reuseAbsentVerdict: config.mode === 'auto' }));
  const devicePromise: Promise<DeviceProfile | null> = config.mode === 'local' ? probe() : Promise.resolve(null);
  const redactorPromise = config.redact.secrets || config.redact.pii || config.redact.patterns.length > 0
    ? import(/* webpackChunkName: "kit-redaction" */ '../core/redaction/index.js').then((m) => m.loadRedactor(config.redact))
    : Promise.resolve(null);
  const load = async (abort: AbortSignal) => {
    const loaded = await loadContext(config, emit, abort, redactorPromise);
    host.inspect?.({
      pages: loaded.pages, stats: loaded.stats, redacted: loaded.redacted,
      checkGrounding: (question) => checkGrounding(loaded.retriever.corpus, question, { minMatches: config.groundingMinMatches }),
    });
    return loaded;
  };
  let context: Context;
  try {
    context = await load(setup.signal);
  } catch (err) {
    throw misconfigured ?? err;
  }
  const [plan, device] = await Promise.all([planPromise, devicePromise]);
  setup.dispose();
  if (misconfigured) throw misconfigured;

  // The owner's log (issue 13): one conversation per instance; the service logs remote answers, the beacon the rest.
  reporter = createQuestionReporter({ client, transport, apiKey: config.apiKey, plan, ...(conversationId ? { conversationId } : {}) });
  const log = reporter;
  const settings = plan?.assistant ?? null;
  // Snippet options win: the owner's refusal text applies only where the snippet kept Kit's default.
  const refusalText = config.refusalMessage === DEFAULT_REFUSAL_MESSAGE && settings?.refusal_message ? settings.refusal_message : config.refusalMessage;
  const logContext = () => ({ pageUrl: pageUrl(), conversationId: log.conversationId });
  const when = probeWhen(config, plan);
  // 'auto' with both modes allowed: remote answers until the first question that reaches an engine; that question
  // probes the device and, on a GPU that can hold a model, loads it (a `mode` event announces the switch).
  let deferred: (() => Promise<Engine>) | null = null;
  let engine: Engine;
  if (when === 'first-question') {
    engine = { kind: 'remote', port: createRemoteInference(client, { context: logContext }) };
    emit('mode', { mode: 'remote', model: engine.port.model, reason: 'device_not_probed' });
    let choosing: Promise<Engine> | null = null;
    deferred = () => (choosing ??= probe().then((d) => chooseEngine(config, host, plan, d, client, emit, signal, logContext)));
  } else {
    engine = await chooseEngine(config, host, plan, device ?? (when === 'now' ? await probe() : { adapter: null }), client, emit, signal, logContext);
  }
  const modeOf = (e: Engine) => (e.kind === 'remote' ? 'remote' : 'local');
  const logModeOf = (e: Engine) => (e.kind === 'remote' ? 'remote' : e.kind === 'extractive' ? 'extractive' : 'local');
  const mode = modeOf(engine);
  const assistant: Assistant = {
    ready: { mode, model: engine.port.model, context: context.stats },
    settings,
    async ask(question, history, { signal: askSignal, onToken }) {
      const askedAt = new Date();
      const started = Date.now();
      const report = (answer: Answer | null, error?: unknown): void => {
        // Remote answers are logged by the service; only what it never saw is reported from here.
        if (answer?.id?.startsWith('req_')) return void log.remoteAnswered();
        if (!answer && engine.kind === 'remote') return;
        log.report({
          messageId: answer?.id ?? log.newMessageId(), question, answer: answer && !answer.refused ? answer.text : null, citations: answer?.citations ?? [],
          mode: logModeOf(engine), model: engine.port.model, outcome: !answer ? 'error' : answer.refused ? 'refused' : 'answered',
          ...(error && isKitError(error) ? { errorCode: error.code } : {}), askedAt, latencyMs: Date.now() - started, pageUrl: pageUrl(),
        });
      };
      // SPA navigation: the live page changed since it was read; read it again before answering.
      if (config.context.scope === 'page' && pageUrl() !== context.url) context = await load(askSignal);
      if (config.grounding) {
        // A question in another language than the page: its own stopwords must not count as content words.
        await loadLanguageOf(question, context.retriever.corpus.language).catch(() => false);
        const verdict = checkGrounding(context.retriever.corpus, question, { minMatches: config.groundingMinMatches });
        if (!verdict.grounded) {
          const refusal: Answer = { id: log.newMessageId(), text: refusalText, citations: [], refused: true, mode: modeOf(engine), model: engine.port.model };
          report(refusal);
          return refusal;
        }
      }
      const sources = selectSources(context, question, plan?.limits.max_context_chars);
      try {
        // The first question an engine will answer: now the device's verdict matters (see probeWhen).
        if (deferred) { engine = await deferred(); deferred = null; }
        const answer = await runEngine(engine, modeOf(engine), { question, history, sources, signal: askSignal, instructions: settings?.instructions ?? null }, onToken, refusalText);
        const withId: Answer = answer.id ? answer : { ...answer, id: log.newMessageId() };
        report(withId);
        return withId;
      } catch (err) {
        if (!askSignal.aborted) report(null, err);
        throw err;
      }
    },
    feedback: (messageId, rating, comment) => log.feedback(messageId, rating, comment),
    destroy() { log.destroy(); client.destroy(); },
  };
  return assistant;
};

/**
 * When the WebGPU probe runs: 'now' when local inference is the only choice (forced, or a local-only plan), 'never'
 * when its verdict cannot change the engine (remote requested or the only mode, or no plan and no forced local:
 * core's extractive engine), 'first-question' in 'auto' with both modes allowed.
 */
export function probeWhen(config: Pick<KitConfig, 'mode'>, plan: Pick<PlatformConfig, 'mode'> | null): 'now' | 'never' | 'first-question' {
  if (config.mode === 'local') return 'now';
  if (config.mode === 'remote' || plan === null || plan.mode === 'remote') return 'never';
  return plan.mode === 'local' ? 'now' : 'first-question';
}

/** Where the service is when no `endpoint` is given: the server the SDK script itself was loaded from. */
function defaultEndpoint(): string {
  const src = (globalThis as { __kitScriptUrl?: string }).__kitScriptUrl;
  if (!src) throw new KitError('invalid_config', 'endpoint is required when the SDK is not loaded from a Kit server (e.g. endpoint: "https://kit.example.com/v1").', { details: { option: 'endpoint' } });
  return new URL('/v1', src).href;
}

function pageUrl(): string {
  const u = new URL(location.href);
  u.hash = '';
  return u.href;
}

async function loadContext(config: KitConfig, emit: Emit, signal: AbortSignal, redactorPromise: Promise<{ redact(text: string): { text: string; counts: Partial<Record<string, number>> } } | null>): Promise<Context> {
  const url = pageUrl();
  // The crawl's chunk downloads while the live page is read: its latency overlaps the work instead of following it.
  const crawlChunk = config.context.scope !== 'page' ? import(/* webpackChunkName: "kit-crawl" */ './crawl.js') : null;
  crawlChunk?.catch(() => {}); // awaited below; an early failure must not be reported as unhandled
  const reading = extractMainContent(document, url).then((main): SourcePage | undefined =>
    (main.text.trim() ? { url, title: main.title || document.title, text: main.text.slice(0, config.context.maxCharsPerPage) } : undefined));
  let live: SourcePage | undefined;
  let pages: SourcePage[] = [];
  let cut = { pages: 0, chars: 0 };
  // With a site to read, the work is sliced (issue 12: no long task): the helpers come with the crawl's chunk, so a
  // page-context assistant (one page, a few milliseconds of work) loads none of it.
  let pause: (() => Promise<void>) | null = null;
  let yieldNow: () => Promise<void> = () => Promise.resolve();
  if (config.context.scope !== 'page') {
    // The crawl starts while the live page is still being read (sdk/crawl.ts).
    const livePage = reading.catch(() => undefined);
    const { createTimeSlicer, readSite, yieldToMain } = await crawlChunk!;
    pause = createTimeSlicer().next;
    yieldNow = yieldToMain;
    ({ pages, cut } = await readSite({ url, context: config.context, livePage, onProgress: (p) => emit('progress', p), signal }));
  } else {
    try {
      live = await reading;
    } catch (err) {
      throw new KitError('context_unavailable', 'This page has no readable text.', { cause: err });
    }
    if (live) pages = [live];
  }
  if (live && live.text.length >= config.context.maxCharsPerPage) {
    cut = { pages: 0, chars: Math.max(0, (document.body?.innerText.length ?? 0) - live.text.length) };
  }
  if (pages.length === 0) throw new KitError('context_unavailable', 'Kit found no readable text on this page or site.');
  // Redaction before anything else sees the text: the corpus, the gate, every engine and every request body.
  const redactor = await redactorPromise;
  const redacted: Partial<Record<string, number>> = {};
  if (redactor) {
    const mask = (text: string) => {
      const r = redactor.redact(text);
      for (const [kind, n] of Object.entries(r.counts)) redacted[kind] = (redacted[kind] ?? 0) + (n ?? 0);
      return r.text;
    };
    const masked: SourcePage[] = [];
    for (const p of pages) {
      if (pause) await pause();
      masked.push({ url: p.url, title: mask(p.title), text: mask(p.text) });
    }
    pages = masked;
  }
  await yieldNow();
  // Detects the pages' language and loads its pack (stemmer, stopwords, common words) first: English ships in the
  // runtime, other languages are small lazy chunks.
  // Built a few pages per task (yielding between them), the index in a task of its own.
  const corpus = await prepareCorpus(pages, pause ? { pause } : {});
  await yieldNow();
  const chars = pages.reduce((n, p) => n + p.text.length, 0);
  return { url, pages, redacted, retriever: createRetriever(corpus), stats: { pages: pages.length, chars, truncated: cut.pages > 0 || cut.chars > 0, cut } };
}

async function chooseEngine(config: KitConfig, host: KitHostOptions, plan: PlatformConfig | null, device: DeviceProfile, client: PlatformClient, emit: Emit, signal: AbortSignal, logContext: () => { pageUrl: string; conversationId: string }): Promise<Engine> {
  const remoteAllowed = plan !== null && plan.mode !== 'local';
  // Core's extractive engine is the last resort (no model, no network): loaded only when it is needed.
  const extractive = async (reason: string): Promise<Engine> => {
    const { createExtractiveInference } = await import(/* webpackChunkName: "kit-extractive" */ '../core/retrieval/extractive-inference.js');
    const port = createExtractiveInference();
    emit('mode', { mode: 'local', model: port.model, reason });
    return { kind: 'extractive', port };
  };
  const remote = (reason: string): Engine => {
    const port = createRemoteInference(client, { context: logContext });
    emit('mode', { mode: 'remote', model: port.model, reason });
    return { kind: 'remote', port };
  };
  if (plan === null && config.mode !== 'local') return extractive('service_unavailable');

  // Without a plan (service unreachable, forced local) both modes count as allowed; a model name the SDK does not
  // know from a newer server counts as 'auto'.
  const planModes: PlanModes = plan
    ? { modes: plan.mode, defaultModel: (MODEL_OPTIONS as readonly string[]).includes(plan.model) ? (plan.model as ModelOption) : 'auto' }
    : { modes: 'auto', defaultModel: 'auto' };
  const decision = selectMode({ mode: config.mode, model: config.model }, planModes, device);
  // Chrome's built-in model needs no WebGPU of the page and no download by Kit: first in the local ladder.
  if (!decision.ok || decision.value.mode === 'remote') {
    const builtIn = await builtInEngine(config, host, plan, (p) => emit('progress', { phase: 'model', loaded: p.loaded, total: p.total }), signal, emit);
    if (builtIn) return builtIn;
  }
  if (!decision.ok) return remoteAllowed ? remote('webgpu_unavailable') : extractive('webgpu_unavailable');
  if (decision.value.mode === 'remote') return remote(decision.value.reason);

  const onProgress = (p: { loaded: number; total: number }) => emit('progress', { phase: 'model', loaded: p.loaded, total: p.total });
  const builtIn = await builtInEngine(config, host, plan, onProgress, signal, emit);
  if (builtIn) return builtIn;
  const size = decision.value.model as ModelSize;
  const shaderF16 = device.adapter?.shaderF16 ?? false;
  try {
    const port = host.localEngine
      ? await host.localEngine({ size, shaderF16, onProgress, signal })
      : await (await import(/* webpackChunkName: "kit-webllm" */ '../adapters/webllm/create-web-llm-inference.js')).createWebLlmInference({ size, shaderF16, onProgress, signal });
    emit('mode', { mode: 'local', model: port.model, reason: decision.value.reason });
    return { kind: 'local', port };
  } catch (err) {
    if (signal.aborted) throw err;
    const code = isKitError(err) ? err.code : 'model_load_failed';
    emit('error', { code, message: isKitError(err) ? err.message : 'The local model could not be loaded.' });
    return remoteAllowed ? remote(code) : extractive(code);
  }
}

/**
 * Chrome's built-in model (Prompt API) when this browser has it and the plan and options allow a local engine:
 * in 'auto' only when Chrome already has the model ('available'); with mode 'local' also while Chrome downloads it
 * (progress events). Null when it cannot be used, so the ladder goes on (WebLLM, then remote or extractive).
 */
async function builtInEngine(config: KitConfig, host: KitHostOptions, plan: PlatformConfig | null, onProgress: (p: { loaded: number; total: number }) => void, signal: AbortSignal, emit: Emit): Promise<Engine | null> {
  const own = host.languageModel === undefined; // the page's own global, not a host's (a test's fake)
  const api = host.languageModel === null ? null : host.languageModel ?? (globalThis as { LanguageModel?: unknown }).LanguageModel;
  if (!api || config.mode === 'remote' || plan?.mode === 'remote' || host.localEngine) return null;
  // Chrome logs a warning ("Unable to create a text session…") each time it is asked and has no model: in 'auto', a
  // recent 'unavailable' of this browser is trusted instead of asking on every page view (as the WebGPU probe does).
  if (own && config.mode !== 'local' && builtInUnavailableRecently()) return null;
  // Ask Chrome first (Chrome without the model says 'unavailable'): the adapter's chunk loads only when it can run.
  const availability = await (api as { availability(o: object): Promise<string> }).availability({ expectedOutputs: [{ type: 'text', languages: ['en', 'es', 'ja'] }] }).catch(() => 'unavailable');
  if (availability === 'unavailable' && own) rememberBuiltInUnavailable();
  if (availability === 'unavailable' || (availability !== 'available' && config.mode !== 'local')) return null;
  try {
    const { createPromptApiInference } = await import(/* webpackChunkName: "kit-chrome-ai" */ '../adapters/chrome-ai/create-prompt-api-inference.js');
    const port = await createPromptApiInference({ api: api as never, allowDownload: config.mode === 'local', onProgress, signal });
    emit('mode', { mode: 'local', model: port.model, reason: 'chrome_built_in' });
    return { kind: 'local', port };
  } catch (err) {
    if (signal.aborted) throw err;
    return null;
  }
}

/** localStorage key of a recent 'unavailable' from Chrome's built-in model (per origin): `{ ua, at }`. */
export const BUILT_IN_UNAVAILABLE_KEY = 'kit:chrome-ai-unavailable';
/** How long that verdict is trusted in 'auto' (a Chrome update changes the user agent and asks again). */
export const BUILT_IN_UNAVAILABLE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

function builtInUnavailableRecently(): boolean {
  try {
    const v = JSON.parse(localStorage.getItem(BUILT_IN_UNAVAILABLE_KEY) ?? 'null') as { ua?: unknown; at?: unknown } | null;
    const age = Date.now() - Number(v?.at);
    return !!v && v.ua === navigator.userAgent && age >= 0 && age < BUILT_IN_UNAVAILABLE_TTL_MS;
  } catch {
    return false; // no storage (sandboxed frame, blocked): ask each time
  }
}

function rememberBuiltInUnavailable(): void {
  try {
    localStorage.setItem(BUILT_IN_UNAVAILABLE_KEY, JSON.stringify({ ua: navigator.userAgent, at: Date.now() }));
  } catch {
    /* storage full or blocked: nothing to remember */
  }
}

/** The passages most likely to hold the answer, in rank order, within the character budget. */
function selectSources(context: Context, question: string, planMaxChars: number | undefined): SourcePage[] {
  return selectPassages(context.retriever, question, { maxSources: MAX_SOURCES, maxChars: Math.min(MAX_SOURCE_CHARS, planMaxChars ?? Infinity) });
}

/** Longest passage text an answer's citation carries (the widget previews and highlights it). */
const CITED_TEXT_CHARS = 600;

/**
 * Runs one answer. Markers are renumbered in order of first use, so `[n]` in the text is always `citations[n - 1]`
 * (one numbering for the text, the Sources list and the API), whatever source numbers the engine cited.
 */
async function runEngine(engine: Engine, mode: 'local' | 'remote', request: { question: string; history: readonly ChatTurn[]; sources: SourcePage[]; signal: AbortSignal; instructions: string | null }, onToken: (text: string) => void, refusal: string): Promise<Answer> {
  let text = '';
  let id: string | undefined;
  const citations: Citation[] = [];
  const order: number[] = [];
  let held = '';
  let refused = false;
  const number = (index: number): number | null => {
    const s = request.sources[index - 1];
    if (!s) return null;
    let n = order.indexOf(index);
    if (n < 0) {
      n = order.push(index) - 1;
      citations.push({ url: s.url, title: s.title, text: s.text.slice(0, CITED_TEXT_CHARS) });
    }
    return n + 1;
  };
  const emit = (piece: string): void => {
    // A marker split across pieces ("[" then "2]") is held back until it closes.
    const all = held + piece;
    const open = /\[\d{0,3}$/.exec(all);
    held = open ? open[0] : '';
    const ready = (open ? all.slice(0, open.index) : all).replace(/\[(\d{1,3})\]/g, (m, i: string) => {
      const n = number(Number(i));
      return n === null ? '' : `[${n}]`;
    });
    if (ready) {
      text += ready;
      onToken(ready);
    }
  };
  for await (const event of engine.port.answer(request) as AsyncIterable<{ type: string; text?: string; index?: number; message?: string; requestId?: string }>) {
    if (request.signal.aborted) break;
    if (event.type === 'start' && event.requestId) {
      id = event.requestId;
    } else if (event.type === 'delta' && event.text) {
      emit(event.text);
    } else if (event.type === 'citation' && event.index) {
      number(event.index);
    } else if (event.type === 'refusal') {
      refused = true;
    }
  }
  if (held) {
    text += held;
    onToken(held);
  }
  if (request.signal.aborted) throw request.signal.reason ?? new KitError('network_error', 'Stopped.');
  const ids = id ? { id } : {};
  return refused ? { ...ids, text: refusal, citations: [], refused: true, mode, model: engine.port.model } : { ...ids, text, citations, refused: false, mode, model: engine.port.model };
}

function toEvent(err: unknown): KitEvents['error'] {
  return isKitError(err) ? { code: err.code, message: err.message } : { code: 'network_error', message: 'The service could not be reached.' };
}
