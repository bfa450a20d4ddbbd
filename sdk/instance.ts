import type { KitConfig } from '../core/config/index.js';
import { isKitError, KitError, type ErrorCode } from '../core/errors/index.js';
import type { ChatTurn } from '../core/ports/inference.port.js';
import type { Assistant, KitHostOptions, StartAssistant } from './assistant.js';
import { createEmitter } from './emitter.js';
import { SETUP_CODES } from './setup-codes.js';
import type { Answer, AskOptions, KitEvents, KitInstance } from './types.js';
import { createWidget, type Widget } from './widget/index.js';
import { resolveStrings } from './widget/strings.js';
import { DEFAULT_LOGGING_NOTICE } from './widget/logging-notice.js';

/** Upper bound of a question's length before anything else runs; the server enforces its plan limit again. */
export const MAX_QUESTION_CHARS = 4_000;
/** Turns of history sent with a question: enough for follow-ups, small enough for small local models. */
export const MAX_HISTORY_TURNS = 6;
const destroyedError = (): KitError => new KitError('invalid_request', 'This Kit instance was destroyed; call Kit.init again.');

/** Abort reason of the widget's Stop button: the answer so far is kept, and it is no error. */
const STOPPED = Object.freeze({ name: 'KitStopped' });

/**
 * One Kit instance: lifecycle, events, the widget, and a queue so that asks run one at a time in order.
 * The heavy work (reading the page, redaction, grounding, engines) lives in the Assistant, loaded lazily.
 */
export function createInstance(config: KitConfig, host: KitHostOptions, startAssistant: () => Promise<StartAssistant>): KitInstance & { readonly destroyed: boolean } {
  const emitter = createEmitter<KitEvents>();
  const strings = resolveStrings(config.strings);
  const lifetime = new AbortController();
  const history: ChatTurn[] = [];
  let destroyed = false;
  let queue: Promise<unknown> = Promise.resolve();
  let current: AbortController | null = null;
  /** The assistant once started, so destroy() can tear it down synchronously. */
  let started: Assistant | null = null;

  if (config.onReady) emitter.on('ready', config.onReady);
  if (config.onError) emitter.on('error', config.onError);
  if (config.onMessage) emitter.on('message', config.onMessage);

  const toError = (err: unknown): KitError => {
    if (isKitError(err)) return err;
    if ((err as { name?: string })?.name === 'AbortError') return new KitError('network_error', 'The request was cancelled.', { cause: err });
    return new KitError('internal_error', 'Kit failed unexpectedly.', { cause: err });
  };
  const retryAfter = (err: KitError): number | undefined => {
    const n = err.details?.retry_after_seconds;
    return typeof n === 'number' ? n : undefined;
  };
  const report = (err: KitError) => {
    const seconds = retryAfter(err);
    emitter.emit('error', { code: err.code as ErrorCode, message: err.message, ...(seconds !== undefined && { retryAfterSeconds: seconds }) });
  };
  /** What the visitor reads: the message, and when to try again if the service said so. */
  const visible = (err: KitError): string => {
    // The site's key or origin is misconfigured: the developer's explanation is in the console and the error event.
    if (SETUP_CODES.has(err.code)) return strings.notSetUp;
    const seconds = retryAfter(err);
    return seconds === undefined ? err.message : `${err.message} ${strings.retryIn.replace('{seconds}', String(seconds))}`;
  };

  let widget: Widget | null = null;
  if (host.widget !== false && typeof document !== 'undefined') {
    widget = createWidget({
      strings: config.strings,
      mount: host.mount,
      onAsk: (question) => { instance.ask(question).catch(() => { /* shown in the widget and sent to on('error') */ }); },
      onStop: () => current?.abort(STOPPED),
      onOpenChange: (open) => emitter.emit(open ? 'open' : 'close', {}),
    });
  }

  // Start at once: the page is read and the engine chosen while the visitor is still looking at the launcher.
  const assistant: Promise<Assistant> = startAssistant()
    .then((start) => start(config, host, { emit: (e, p) => { if (!destroyed) emitter.emit(e, p); }, signal: lifetime.signal }))
    .then((a) => {
      if (destroyed) { a.destroy(); throw destroyedError(); }
      started = a;
      widget?.setStatus('');
      const logging = a.settings?.logging;
      if (logging && logging.mode !== 'off') widget?.setNotice?.(logging.notice ?? DEFAULT_LOGGING_NOTICE);
      emitter.emit('ready', a.ready);
      return a;
    });
  assistant.catch((err) => {
    if (destroyed) return;
    const e = toError(err);
    widget?.showError(visible(e));
    report(e);
  });
  if (config.autoOpen) widget?.open();
  emitter.on('progress', (p) => {
    const share = p.total ? p.loaded / p.total : undefined;
    const text = p.phase === 'crawl'
      ? strings.readingSite.replace('{loaded}', String(p.loaded)).replace('{total}', String(p.total))
      : strings.loadingModel.replace('{percent}', String(Math.round((share ?? 0) * 100)));
    widget?.setStatus(text, share);
  });

  async function runAsk(question: string, signal: AbortSignal | undefined): Promise<Answer> {
    const a = await assistant.catch((err) => {
      // The assistant never started: answer the question with why, rather than not at all.
      widget?.showUserMessage(question);
      widget?.showError(visible(toError(err)));
      throw err;
    });
    if (destroyed) throw destroyedError();
    const controller = new AbortController();
    current = controller;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const onLifetimeAbort = () => controller.abort(lifetime.signal.reason);
    lifetime.signal.addEventListener('abort', onLifetimeAbort, { once: true });
    widget?.showUserMessage(question);
    emitter.emit('message', { role: 'user', text: question, citations: [], refused: false });
    const view = widget?.startAnswer();
    let partial = '';
    try {
      const answer: Answer = await a.ask(question, history.slice(-MAX_HISTORY_TURNS), {
        signal: controller.signal,
        onToken: (text) => { partial += text; view?.append(text); emitter.emit('token', { text }); },
      }).catch((err) => {
        // Stop keeps what was said so far: the visitor chose to stop, nothing failed.
        if (controller.signal.reason !== STOPPED) throw err;
        return { text: partial, citations: [], refused: false, mode: a.ready.mode, model: a.ready.model } satisfies Answer;
      });
      if (answer.refused) view?.refuse(answer.text);
      else view?.setCitations(answer.citations);
      view?.done();
      if (answer.id && answer.text) {
        const id = answer.id;
        view?.offerFeedback?.((rating, comment) => instance.feedback(id, rating, comment ? { comment } : {}), { allowComment: (a.settings?.logging.mode ?? 'off') !== 'off' });
      }
      history.push({ role: 'user', content: question }, { role: 'assistant', content: answer.text });
      emitter.emit('message', { role: 'assistant', text: answer.text, citations: answer.citations, refused: answer.refused, ...(answer.id ? { id: answer.id } : {}) });
      return answer;
    } catch (err) {
      const e = toError(err);
      view?.fail(visible(e));
      throw e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      lifetime.signal.removeEventListener('abort', onLifetimeAbort);
      if (current === controller) current = null;
    }
  }

  const instance = {
    get destroyed() { return destroyed; },
    ask(question: string, options: AskOptions = {}): Promise<Answer> {
      if (destroyed) return Promise.reject(destroyedError());
      if (typeof question !== 'string' || question.trim() === '') return Promise.reject(new KitError('invalid_request', 'ask(question): question must be a non-empty string.'));
      if (question.length > MAX_QUESTION_CHARS) return Promise.reject(new KitError('payload_too_large', `ask(question): question is longer than ${MAX_QUESTION_CHARS} characters.`));
      if (options.signal?.aborted) return Promise.reject(new KitError('network_error', 'The request was cancelled.'));
      // One at a time, in call order: a second ask waits for the first (the conversation is one thread).
      const run = queue.then(() => runAsk(question.trim(), options.signal));
      queue = run.catch(() => undefined);
      return run.catch((err) => {
        const e = toError(err);
        if (!destroyed) report(e);
        throw e;
      });
    },
    async feedback(messageId: string, rating: 'up' | 'down', options: { comment?: string } = {}): Promise<{ commentStored: boolean }> {
      if (destroyed) throw destroyedError();
      if (typeof messageId !== 'string' || !/^(req|msg)_[0-9A-Za-z]{8,64}$/.test(messageId)) throw new KitError('invalid_request', 'feedback(messageId): pass the id of an answer (answer.id).');
      if (rating !== 'up' && rating !== 'down') throw new KitError('invalid_request', "feedback(messageId, rating): rating must be 'up' or 'down'.");
      const a = await assistant;
      try {
        return await a.feedback(messageId, rating, options.comment?.trim().slice(0, 500) || undefined);
      } catch (err) {
        throw toError(err);
      }
    },
    open() { if (!destroyed) widget?.open(); },
    close() { if (!destroyed) widget?.close(); },
    on<K extends keyof KitEvents>(event: K, fn: (payload: KitEvents[K]) => void): () => void {
      if (destroyed) return () => undefined;
      return emitter.on(event, fn);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      lifetime.abort(destroyedError());
      if (started) started.destroy();
      else assistant.then((a) => a.destroy(), () => undefined);
      widget?.destroy();
      widget = null;
      emitter.clear();
    },
  };
  return instance;
}
