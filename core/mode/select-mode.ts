import { fail, ok, type Result } from '../errors/index.js';
import { MODEL_SIZES, type ModeOption, type ModelOption, type ModelSize } from '../config/types.js';
import { isSoftwareAdapter, type DeviceProfile, type GpuAdapterProfile } from './device-profile.js';

/** What the plan allows, from GET /config: `modes` 'auto' = both local and remote. */
export interface PlanModes {
  readonly modes: ModeOption;
  readonly defaultModel: ModelOption;
}

export type ModeReason =
  | 'requested'            // the integrator forced this mode and it is possible
  | 'gpu_capable'          // auto: a hardware GPU that can hold at least the nano model
  | 'no_webgpu'            // auto: no WebGPU adapter
  | 'software_gpu'         // auto: only a software / fallback adapter
  | 'gpu_too_small'        // auto: adapter limits or memory below the smallest model
  | 'mobile'               // auto: a phone; remote spares its battery and data plan
  | 'plan_remote_only'     // the plan allows remote only
  | 'plan_local_only';     // the plan allows local only

export interface ModeDecision {
  readonly mode: 'local' | 'remote';
  /** A local model size, or 'remote' when inference runs on the service. */
  readonly model: ModelSize | 'remote';
  readonly reason: ModeReason;
}

const MIB = 1024 * 1024;
/**
 * Tier thresholds. A model's largest weight tensor must fit one storage binding; WebLLM's low-resource
 * builds of ~0.5B models fit the WebGPU default of 128 MiB, ~1B models need 256 MiB, 3B need 1 GiB, 7-8B need 2 GiB.
 */
export const BINDING_THRESHOLDS: Readonly<Record<ModelSize, number>> = Object.freeze({ nano: 128 * MIB, small: 256 * MIB, balanced: 1024 * MIB, quality: 2048 * MIB });
/** Minimum measured GFLOP/s per tier: below them a token takes longer than a reader waits. */
export const GFLOPS_THRESHOLDS: Readonly<Record<ModelSize, number>> = Object.freeze({ nano: 0, small: 150, balanced: 600, quality: 1500 });
/** Minimum device memory (GB, as navigator.deviceMemory reports it, capped at 8) per tier. */
export const MEMORY_THRESHOLDS: Readonly<Record<ModelSize, number>> = Object.freeze({ nano: 2, small: 4, balanced: 8, quality: 8 });

/** The largest model size the device can run, or null when it cannot run even nano. */
export function deviceTier(adapter: GpuAdapterProfile, device: DeviceProfile): ModelSize | null {
  const binding = Math.min(adapter.maxStorageBufferBindingSize, adapter.maxBufferSize);
  let best: ModelSize | null = null;
  for (const size of MODEL_SIZES) {
    if (binding < BINDING_THRESHOLDS[size]) break;
    if (device.benchmarkGflops !== undefined && device.benchmarkGflops < GFLOPS_THRESHOLDS[size]) break;
    if (device.deviceMemoryGb !== undefined && device.deviceMemoryGb < MEMORY_THRESHOLDS[size]) break;
    best = size;
  }
  return best;
}

function smaller(a: ModelSize, b: ModelSize): ModelSize {
  return MODEL_SIZES.indexOf(a) <= MODEL_SIZES.indexOf(b) ? a : b;
}

/**
 * Picks the local model size: an explicit size wins (the integrator knows their audience); 'auto' takes the
 * plan's default when the device can hold it, else the device's tier.
 */
function pickModel(requested: ModelOption, plan: PlanModes, tier: ModelSize | null): ModelSize {
  if (requested !== 'auto') return requested;
  const deviceBest = tier ?? 'nano';
  return plan.defaultModel === 'auto' ? deviceBest : smaller(plan.defaultModel, deviceBest);
}

/**
 * Decides where inference runs (SPEC §1 "auto: the SDK chooses by device and tier", CONTRACT §8).
 * Pure: the same inputs always give the same decision. Fails with `webgpu_unavailable` when local is the
 * only possibility (forced, or a local-only plan) and the device has no WebGPU; the SDK then falls back
 * to the extractive engine in the page and reports it with a `mode` event.
 */
export function selectMode(requested: { mode: ModeOption; model: ModelOption }, plan: PlanModes, device: DeviceProfile): Result<ModeDecision, 'webgpu_unavailable'> {
  const remote = (reason: ModeReason): Result<ModeDecision, 'webgpu_unavailable'> => ok({ mode: 'remote', model: 'remote', reason });
  const adapter = device.adapter;

  if (plan.modes === 'remote') return remote('plan_remote_only');

  const localOnly = plan.modes === 'local' || requested.mode === 'local';
  const reasonIfLocal: ModeReason = requested.mode === 'local' ? 'requested' : plan.modes === 'local' ? 'plan_local_only' : 'gpu_capable';
  if (localOnly) {
    if (!adapter) return fail('webgpu_unavailable', requested.mode === 'local' ? 'mode "local" was requested but this browser has no WebGPU adapter' : 'the plan allows local inference only and this browser has no WebGPU adapter');
    // Forced local on a software or small adapter is honoured with the smallest model that can run.
    const tier = isSoftwareAdapter(adapter) ? 'nano' : deviceTier(adapter, device);
    return ok({ mode: 'local', model: pickModel(requested.model, plan, tier), reason: reasonIfLocal });
  }

  if (requested.mode === 'remote') return remote('requested');

  // auto, both modes allowed: local only when the device can really run a model.
  if (!adapter) return remote('no_webgpu');
  if (isSoftwareAdapter(adapter)) return remote('software_gpu');
  if (device.mobile) return remote('mobile');
  const tier = deviceTier(adapter, device);
  if (tier === null) return remote('gpu_too_small');
  return ok({ mode: 'local', model: pickModel(requested.model, plan, tier), reason: 'gpu_capable' });
}
