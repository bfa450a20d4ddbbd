export { selectMode, deviceTier, BINDING_THRESHOLDS, GFLOPS_THRESHOLDS, MEMORY_THRESHOLDS, type ModeDecision, type ModeReason, type PlanModes } from './select-mode.js';
export { isSoftwareAdapter, type DeviceProfile, type GpuAdapterProfile } from './device-profile.js';
