/**
 * Local engines, a lazy chunk (`kit-local`) of the runtime: the device decides (core/mode), Chrome's built-in model
 * (Prompt API), WebLLM, core's extractive engine. A remote first answer needs none of it: the runtime loads this
 * chunk for `mode: 'local'`, a local-only plan, an unreachable service (the extractive engine), and in 'auto' after
 * the first remote answer (docs/sdk.md, "Choosing the engine").
 */
import { MODEL_OPTIONS, type KitConfig, type ModelOption, type ModelSize } from '../core/config/index.js';
import { isKitError } from '../core/errors/index.js';
import { selectMode, type DeviceProfile, type PlanModes } from '../core/mode/index.js';
import type { InferencePort } from '../core/ports/inference.port.js';
import type { PlatformConfig } from '../adapters/remote/platform-client.js';
import type { RemoteInferencePort } from '../adapters/remote/remote-inference.js';
import type { KitHostOptions } from './assistant.js';
import type { KitEvents } from './types.js';

/** The engine answering now: the service, a local model, or core's extractive engine. */
export type Engine = { kind: 'remote'; port: RemoteInferencePort } | { kind: 'local' | 'extractive'; port: InferencePort };
type Emit = <K extends keyof KitEvents>(event: K, payload: KitEvents[K]) => void;

/**
 * Before a local engine is announced: a local engine answers only behind the browser's gate, and the runtime switches
 * to it once the gate's chunk is here — announced before, a question asked on the `mode` event still went to the
 * service. (The same module as the runtime's loadGate: one chunk, loaded once; a failure is the runtime's to report.)
 */
const gateLoaded = (config: KitConfig): Promise<unknown> | undefined =>
  config.grounding ? import(/* webpackChunkName: "kit-gate" */ '../core/grounding/index.js').catch(() => undefined) : undefined;

/**
 * The engine for this device, plan and options: Chrome's built-in model, WebLLM (or the host's local engine), the
 * service (`remote`, made by the runtime), or core's extractive engine. Announces it with a `mode` event.
 */
export async function chooseEngine(config: KitConfig, host: KitHostOptions, plan: PlatformConfig | null, device: DeviceProfile, remote: (reason: string) => Engine, emit: Emit, signal: AbortSignal): Promise<Engine> {
  const remoteAllowed = plan !== null && plan.mode !== 'local';
  // Core's extractive engine is the last resort (no model, no network): loaded only when it is needed.
  const extractive = async (reason: string): Promise<Engine> => {
    // The gate's chunk, loaded beside it (as gateLoaded would, a failure left to the runtime), also lends the engine
    // its page-question reading: "what is this page about?" is answered with the lead.
    const [{ createExtractiveInference }, gate] = await Promise.all([
      import(/* webpackChunkName: "kit-extractive" */ '../core/retrieval/extractive-inference.js'),
      import(/* webpackChunkName: "kit-gate" */ '../core/grounding/index.js').catch(() => null),
    ]);
    const port = createExtractiveInference(gate ? { answer: { pageQuestion: gate.isPageQuestion } } : {});
    emit('mode', { mode: 'local', model: port.model, reason });
    return { kind: 'extractive', port };
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
    await gateLoaded(config);
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
    await gateLoaded(config);
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
