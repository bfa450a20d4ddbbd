/**
 * The assistant runtime, loaded as a lazy chunk by sdk/index.ts: reads the page (or site), redacts it, builds the
 * corpus, chooses the engine, and answers. The order is the privacy contract (issue 6 §4): redaction runs on page
 * text before anything reaches a model or leaves the page. The grounding gate runs before every engine: in the
 * browser before a local one (a refused question reaches no model), on the service before a remote one (POST /chat
 * runs the same gate over the sources it receives and streams a refusal). So a remote first answer loads neither the
 * gate (`kit-gate`) nor the local engines' code (`kit-local`, the device probe): docs/sdk.md, "Choosing the engine".
 */
import type { KitConfig } from '../core/config/index.js';
import { isKitError, KitError } from '../core/errors/index.js';
import type { DeviceProfile } from '../core/mode/index.js';
import type { HttpTransportPort } from '../core/ports/http-transport.port.js';
import type { ChatTurn } from '../core/ports/inference.port.js';
// The retriever and source selection only: the extractive answerer is a lazy chunk, loaded when it is the engine.
import { createRetriever, type Retriever } from '../core/retrieval/retriever.js';
import { selectSources as selectPassages } from '../core/retrieval/select-sources.js';
import type { Citation, SourcePage } from '../core/sources.js';
import { loadLanguageOf } from '../core/text/load-language.js';
import { prepareCorpus } from '../core/text/prepare-corpus.js';
import { extractFrom, extractMainContent } from '../adapters/browser/extract-main-content.js';
import { createAltchaSolver } from '../adapters/remote/altcha-solver.js';
import { createFetchTransport } from '../adapters/remote/fetch-transport.js';
import { linkSignals } from '../adapters/remote/linked-signal.js';
import { createPlatformClient, type PlatformConfig } from '../adapters/remote/platform-client.js';
import { createRemoteInference } from '../adapters/remote/remote-inference.js';
import type { Assistant, StartAssistant } from './assistant.js';
import type { Engine } from './local-engine.js';
import type { PageRedactor } from './redact-pages.js';
import type { SiteReading } from './site-context.js';
import { SETUP_CODES } from './setup-codes.js';
import { DEFAULT_REFUSAL_MESSAGE, DEFAULT_SITE_REFUSAL_MESSAGE } from '../core/config/defaults.js';
import { randomId } from './ids.js';
import type { QuestionReporter } from './insights.js';
import type { Answer, ContextStats, KitEvents } from './types.js';

/**
 * The service's gate's `minMatches` (core/grounding GROUNDING_DEFAULTS.minMatches, which POST /chat uses; a unit test
 * keeps them equal): a snippet's `groundingMinMatches` above it is checked in the browser too. Not imported, so the
 * gate's module stays out of this chunk.
 */
export const SERVICE_MIN_MATCHES = 1;

/** Passages sent with a question: enough to hold an answer and its context, small enough for a local model. */
export const MAX_SOURCES = 6;
/** Characters of sources per question (the plan's `max_context_chars` caps it further for remote). */
export const MAX_SOURCE_CHARS = 12_000;

type GateModule = typeof import('../core/grounding/index.js');
type Emit = <K extends keyof KitEvents>(event: K, payload: KitEvents[K]) => void;

interface Context {
  url: string;
  pages: SourcePage[];
  stats: ContextStats;
  retriever: Retriever;
  redacted: Partial<Record<string, number>>;
}

/** Starts the assistant for `config` on this page. Rejects with a KitError when the page cannot be read at all. */
export const startAssistant: StartAssistant = async (config, host, { emit, signal, conversationId, read, settings: owner, site }) => {
  const base = (host.transport as HttpTransportPort | undefined) ?? createFetchTransport();
  // The console's preview on the owner's own site (docs/console.md): a page opened as `…#kit-preview=<token>` sends
  // the token as `Kit-Preview`; `/config` then shows the owner's unsaved settings (that key and origin only).
  const preview = /kit-preview=([\w.-]+)/.exec(globalThis.location?.hash)?.[1];
  const transport: HttpTransportPort = preview ? { request: (r) => base.request({ ...r, headers: { ...r.headers, 'kit-preview': preview } }) } : base;
  const client = createPlatformClient({ baseUrl: config.endpoint ?? defaultEndpoint(), apiKey: config.apiKey, transport, solveChallenge: createAltchaSolver() });
  let reporter: QuestionReporter | null = null;
  // The reporter sends what is queued first, while the client still holds the page's session.
  signal.addEventListener('abort', () => (reporter?.destroy(), client.destroy()), { once: true });

  // The three slow starts run together: the plan, the device, and the page.
  // The plan is read even for local mode: it says which modes the key may use, and it checks the key and origin.
  // A key or origin the service refuses stops the start (and the page reading) with one clear console error; an
  // unreachable service only costs the remote engine.
  const setup = linkSignals(signal);
  let misconfigured: KitError | null = null;
  const planPromise = client.getConfig({ signal }).then((c) => (owner?.(c.assistant ?? null), c), async (err) => {
    if (signal.aborted) throw err;
    if (isKitError(err) && SETUP_CODES.has(err.code)) {
      // The explanations are a chunk of their own: only misconfigured pages load them.
      const { setupError } = await import(/* webpackChunkName: "kit-setup-error" */ './setup-error.js');
      misconfigured = setupError(err, config.apiKey);
      console.error(`Kit: ${misconfigured.message}`);
      setup.abort(misconfigured);
      throw misconfigured;
    }
    emit('error', toEvent(err));
    return null;
  });
  // The WebGPU probe runs only when its verdict decides something (issue 10.3): Chromium logs "No available
  // adapters." whenever requestAdapter() finds none, so a page whose visitor asks nothing must not call it.
  const probe = (): Promise<DeviceProfile> => import(/* webpackChunkName: "kit-probe" */ '../adapters/browser/webgpu-probe.js').then((m) => m.probeDevice({ benchmark: config.gpuBenchmark, signal, reuseAbsentVerdict: config.mode === 'auto' }));
  const devicePromise: Promise<DeviceProfile> | null = config.mode === 'local' ? probe() : null;
  // Nothing of the page is read, and none of the reading's chunks run, before the first sign of use (`read`).
  // A key or origin the service refuses is reported at once, without it.
  await Promise.race([read, planPromise.then(() => read)]);
  const redactorPromise = config.redact.secrets || config.redact.pii || config.redact.patterns.length > 0
    ? import(/* webpackChunkName: "kit-redaction" */ './redact-pages.js').then((m) => m.loadPageRedactor(config.redact))
    : null;
  // The gate in the browser (a chunk): before a local engine, and before the service when the snippet asks for a
  // stricter gate than the service's (`groundingMinMatches` above the default; the service gates with the default).
  const strictGate = config.grounding && config.groundingMinMatches !== SERVICE_MIN_MATCHES;
  let gateChunk: Promise<GateModule> | null = null;
  const loadGate = (): Promise<GateModule> => (gateChunk ??= import(/* webpackChunkName: "kit-gate" */ '../core/grounding/index.js').catch((err) => {
    gateChunk = null; // the next question tries again
    throw new KitError('network_error', 'Part of Kit could not be loaded; check the connection and ask again.', { cause: err });
  }));
  // Where the gate will surely run, its chunk downloads beside the page reading (an unhandled rejection is not ours).
  if (host.inspect || strictGate || (config.grounding && config.mode === 'local')) loadGate().catch(() => undefined);
  const load = async (abort: AbortSignal) => {
    const loaded = await loadContext(config, emit, abort, redactorPromise, site);
    if (host.inspect) {
      const { checkGrounding } = await loadGate();
      host.inspect({
        pages: loaded.pages, stats: loaded.stats, redacted: loaded.redacted,
        checkGrounding: (question) => checkGrounding(loaded.retriever.corpus, question, { minMatches: config.groundingMinMatches }),
      });
    }
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

  // The owner's log (issue 13): one conversation per instance; the service logs remote answers (and its refusals),
  // the beacon what this browser answered or refused. The reporter and its beacon are a chunk (`kit-reporter`): a
  // conversation the service answers loads it only for the thumbs, or after an answer when the owner logs questions' text.
  const conversation = conversationId ?? ((own: string) => () => own)(randomId('cnv'));
  const logging = plan?.assistant?.logging.mode ?? 'off';
  let reporterLoad: Promise<QuestionReporter> | null = null;
  const log = (): Promise<QuestionReporter> => (reporterLoad ??= import(/* webpackChunkName: "kit-reporter" */ './insights.js').then(
    (m) => (reporter = m.createQuestionReporter({ client, transport, apiKey: config.apiKey, plan, conversationId: conversation })),
    (err) => { reporterLoad = null; throw err; },
  ));
  const noop = (): void => undefined;
  const settings = plan?.assistant ?? null;
  // Snippet options win: the owner's refusal text applies only where the snippet kept Kit's default, which says "site"
  // when the assistant reads one.
  const kept = config.refusalMessage === DEFAULT_REFUSAL_MESSAGE;
  const refusalText = kept && settings?.refusal_message ? settings.refusal_message : kept && config.context.scope !== 'page' ? DEFAULT_SITE_REFUSAL_MESSAGE : config.refusalMessage;
  const logContext = () => ({ pageUrl: pageUrl(), conversationId: conversation() });
  const remote = (reason: string): Engine => {
    const port = createRemoteInference(client, { context: logContext });
    emit('mode', { mode: 'remote', model: port.model, reason });
    return { kind: 'remote', port };
  };
  const choose = async (d: DeviceProfile): Promise<Engine> =>
    (await import(/* webpackChunkName: "kit-local" */ './local-engine.js')).chooseEngine(config, host, plan, d, remote, emit, signal);
  const when = probeWhen(config, plan);
  // 'auto' with both modes allowed: the service answers at once (no probe, no download before a first answer). Once
  // the first question has been answered, the device is probed and a local engine loaded beside the conversation;
  // the next question after it is ready goes to it (a `mode` event announces the switch; docs/sdk.md).
  let upgrade: (() => void) | null = null;
  let engine: Engine;
  if (when === 'after-first-answer') {
    engine = remote('device_not_probed');
    upgrade = () => {
      upgrade = null;
      void probe().then(choose).then(async (next) => {
        // A local engine answers only behind the browser's gate: its chunk is here before the switch.
        if (next.kind !== 'remote') {
          if (config.grounding) await loadGate();
          log().catch(noop); // its answers are reported from here: the reporter's chunk comes before the first
        }
        if (!signal.aborted) engine = next;
      }).catch(() => {
        // No probe or no local engine (a lost chunk, a failed load): the service goes on answering.
      });
    };
  } else if (when === 'never' && plan !== null && plan.mode !== 'local') {
    // Remote was asked for, or is all the plan allows: what selectMode would say, without its chunk.
    engine = remote(plan.mode === 'remote' ? 'plan_remote_only' : 'requested');
  } else {
    engine = await choose(device ?? (when === 'now' ? await probe() : { adapter: null }));
    if (engine.kind !== 'remote' && config.grounding) loadGate().catch(() => undefined);
  }
  // Questions answered or refused in this browser are reported by the beacon: its chunk comes before the first one.
  if (engine.kind !== 'remote' || strictGate) log().catch(noop);
  const modeOf = (e: Engine) => (e.kind === 'remote' ? 'remote' : 'local');
  const logModeOf = (e: Engine) => (e.kind === 'remote' ? 'remote' : e.kind === 'extractive' ? 'extractive' : 'local');
  const mode = modeOf(engine);
  const assistant: Assistant = {
    ready: { mode, model: engine.port.model, context: context.stats },
    async ask(question, history, { signal: askSignal, onToken }) {
      const askedAt = new Date();
      const started = Date.now();
      const report = (answer: Answer | null, by: Engine, error?: unknown, missed?: boolean): void => {
        // Remote answers (and the service's refusals) are logged by the service; only what it never saw is reported
        // from here: local answers, and refusals by the gate in this browser.
        if (answer?.id?.startsWith('req_')) {
          if (logging !== 'off' && plan) log().then((r) => r.remoteAnswered(), noop);
          return;
        }
        if (!answer && by.kind === 'remote') return;
        const latencyMs = Date.now() - started;
        const at = pageUrl();
        log().then((r) => r.report({
          messageId: answer?.id ?? randomId('msg'), question, answer: answer && !answer.refused ? answer.text : null, citations: answer?.citations ?? [],
          mode: logModeOf(by), model: by.port.model, outcome: !answer ? 'error' : answer.refused ? 'refused' : missed ? 'not_found' : 'answered',
          ...(error && isKitError(error) ? { errorCode: error.code } : {}), askedAt, latencyMs, pageUrl: at,
        }), noop);
      };
      // SPA navigation: the live page changed since it was read; read it again before answering.
      if (config.context.scope === 'page' && pageUrl() !== context.url) context = await load(askSignal);
      // A question in another language than the page: its own stopwords must not count as content words (for the
      // gate and for ranking the sources).
      if (config.grounding) await loadLanguageOf(question, context.retriever.corpus.language).catch(() => false);
      // The gate runs here before a local engine, or when the snippet's is stricter than the service's; otherwise
      // the service gates the question (POST /chat streams a refusal, shown below exactly as one from here).
      const answering = engine;
      if (config.grounding && (answering.kind !== 'remote' || strictGate)) {
        const { checkGrounding } = await loadGate();
        const verdict = checkGrounding(context.retriever.corpus, question, { minMatches: config.groundingMinMatches });
        if (!verdict.grounded) {
          const refusal: Answer = { id: randomId('msg'), text: refusalText, citations: [], refused: true, mode: modeOf(answering), model: answering.port.model };
          report(refusal, answering);
          return refusal;
        }
      }
      const sources = selectSources(context, question, plan?.limits.max_context_chars);
      try {
        const [answer, missed] = await runEngine(answering, modeOf(answering), { question, history, sources, signal: askSignal, instructions: settings?.instructions ?? null }, onToken, refusalText);
        const withId: Answer = answer.id ? answer : { ...answer, id: randomId('msg') };
        report(withId, answering, 0, missed);
        return withId;
      } catch (err) {
        if (!askSignal.aborted) report(null, answering, err);
        throw err;
      } finally {
        // The first question an engine took (see probeWhen): now the device may be asked, off the answer's path —
        // in a later task, once the answer has reached the visitor (the instance's `message` event).
        if (upgrade && !signal.aborted && !askSignal.aborted) setTimeout(() => { if (!signal.aborted) upgrade?.(); }, 0);
      }
    },
    feedback: async (messageId, rating, comment) => (await log()).feedback(messageId, rating, comment),
    destroy() { reporter?.destroy(); client.destroy(); },
  };
  return assistant;
};

/**
 * When the WebGPU probe runs: 'now' when local inference is the only choice (forced, or a local-only plan), 'never'
 * when its verdict cannot change the engine (remote requested or the only mode, or no plan and no forced local:
 * core's extractive engine), 'after-first-answer' in 'auto' with both modes allowed (the service answers the first
 * question; the probe and a local model's load follow it, off the path of that answer).
 */
export function probeWhen(config: Pick<KitConfig, 'mode'>, plan: Pick<PlatformConfig, 'mode'> | null): 'now' | 'never' | 'after-first-answer' {
  if (config.mode === 'local') return 'now';
  if (config.mode === 'remote' || plan === null || plan.mode === 'remote') return 'never';
  return plan.mode === 'local' ? 'now' : 'after-first-answer';
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

async function loadContext(config: KitConfig, emit: Emit, signal: AbortSignal, redactorPromise: Promise<PageRedactor> | null, site: Promise<SiteReading> | undefined): Promise<Context> {
  const url = pageUrl();
  const readLive = () => extractMainContent(document, url).then((main): SourcePage | undefined =>
    (main.text.trim() ? { url, title: main.title || document.title, text: main.text.slice(0, config.context.maxCharsPerPage) } : undefined));
  let pages: SourcePage[] = [];
  let cut = { pages: 0, chars: 0 };
  let redacted: Partial<Record<string, number>> = {};
  let corpus;
  if (site) {
    // A site: its crawl started with the instance's first sign of use (sdk/site-context.ts); it takes the live page,
    // the extractor, the redactor and the corpus builder from here, and reads, redacts and indexes pages as they come.
    ({ pages, cut, redacted, corpus } = await (await site).read({ live: () => readLive().catch(() => undefined), extract: extractFrom, prepare: prepareCorpus, redactor: redactorPromise, onProgress: (p) => emit('progress', p), signal }));
  } else {
    let live: SourcePage | undefined;
    try {
      live = await readLive();
    } catch (err) {
      throw new KitError('context_unavailable', 'This page has no readable text.', { cause: err });
    }
    if (!live) throw new KitError('context_unavailable', 'Kit found no readable text on this page or site.');
    if (live.text.length >= config.context.maxCharsPerPage) cut = { pages: 0, chars: Math.max(0, (document.body?.innerText.length ?? 0) - live.text.length) };
    // Redaction before anything else sees the text: the corpus, the gate, every engine and every request body.
    const redactor = await redactorPromise;
    ({ pages, redacted } = redactor ? await redactor([live], null) : { pages: [live], redacted });
    // Detects the page's language and loads its pack (stemmer, stopwords, common words) first: English ships in the
    // runtime, other languages are small lazy chunks.
    corpus = await prepareCorpus(pages);
  }
  const chars = pages.reduce((n, p) => n + p.text.length, 0);
  return { url, pages, redacted, retriever: createRetriever(corpus), stats: { pages: pages.length, chars, truncated: cut.pages > 0 || cut.chars > 0, cut } };
}

/** The passages most likely to hold the answer, in rank order, within the character budget. */
function selectSources(context: Context, question: string, planMaxChars: number | undefined): SourcePage[] {
  return selectPassages(context.retriever, question, { maxSources: MAX_SOURCES, maxChars: Math.min(MAX_SOURCE_CHARS, planMaxChars ?? Infinity) });
}

/** Longest passage text an answer's citation carries (the widget previews and highlights it). */
const CITED_TEXT_CHARS = 600;

/**
 * Runs one answer. Markers are renumbered in order of first use, so `[n]` in the text is always `citations[n - 1]`
 * (one numbering for the text, the Sources list and the API), whatever source numbers the engine cited. With it,
 * whether the engine said it found no answer in the sources (`done.found: false`: the owner's log counts `not_found`).
 */
async function runEngine(engine: Engine, mode: 'local' | 'remote', request: { question: string; history: readonly ChatTurn[]; sources: SourcePage[]; signal: AbortSignal; instructions: string | null }, onToken: (text: string) => void, refusal: string): Promise<[Answer, boolean]> {
  let text = '';
  let id: string | undefined;
  const citations: Citation[] = [];
  const order: number[] = [];
  let held = '';
  let refused = false;
  let missed = false;
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
  for await (const event of engine.port.answer(request) as AsyncIterable<{ type: string; text?: string; index?: number; message?: string; requestId?: string; found?: boolean }>) {
    if (request.signal.aborted) break;
    if (event.type === 'start' && event.requestId) {
      id = event.requestId;
    } else if (event.type === 'delta' && event.text) {
      emit(event.text);
    } else if (event.type === 'citation' && event.index) {
      number(event.index);
    } else if (event.type === 'refusal') {
      refused = true;
    } else if (event.found === false) {
      missed = true;
    }
  }
  if (held) {
    text += held;
    onToken(held);
  }
  if (request.signal.aborted) throw request.signal.reason ?? new KitError('network_error', 'Stopped.');
  const ids = id ? { id } : {};
  return [refused ? { ...ids, text: refusal, citations: [], refused: true, mode, model: engine.port.model } : { ...ids, text, citations, refused: false, mode, model: engine.port.model }, missed];
}

function toEvent(err: unknown): KitEvents['error'] {
  return isKitError(err) ? { code: err.code, message: err.message } : { code: 'network_error', message: 'The service could not be reached.' };
}
