import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { selectMode, deviceTier, isSoftwareAdapter, type DeviceProfile, type GpuAdapterProfile, type PlanModes } from '../../../core/mode/index.js';
import type { ModeOption, ModelOption } from '../../../core/config/index.js';

const MIB = 1024 * 1024;
const gpu = (over: Partial<GpuAdapterProfile> = {}): GpuAdapterProfile => ({ isFallback: false, vendor: 'nvidia', architecture: 'ampere', description: '', maxBufferSize: 4096 * MIB, maxStorageBufferBindingSize: 4096 * MIB, shaderF16: true, ...over });
const SWIFTSHADER = gpu({ isFallback: false, vendor: 'google', architecture: 'swiftshader', description: 'SwiftShader Device (Subzero)', shaderF16: false });
const FALLBACK = gpu({ isFallback: true, vendor: '', architecture: '' });
const BOTH: PlanModes = { modes: 'auto', defaultModel: 'auto' };
const REMOTE_ONLY: PlanModes = { modes: 'remote', defaultModel: 'auto' };
const LOCAL_ONLY: PlanModes = { modes: 'local', defaultModel: 'auto' };

type Row = [label: string, req: { mode: ModeOption; model: ModelOption }, plan: PlanModes, device: DeviceProfile, expected: unknown];
const auto = { mode: 'auto', model: 'auto' } as const;

const TABLE: Row[] = [
  ['auto picks local on a capable hardware GPU', auto, BOTH, { adapter: gpu(), benchmarkGflops: 5000, deviceMemoryGb: 8 }, { mode: 'local', model: 'quality', reason: 'gpu_capable' }],
  ['auto goes remote without WebGPU', auto, BOTH, { adapter: null }, { mode: 'remote', model: 'remote', reason: 'no_webgpu' }],
  ['auto counts SwiftShader as no GPU', auto, BOTH, { adapter: SWIFTSHADER }, { mode: 'remote', model: 'remote', reason: 'software_gpu' }],
  ['auto counts a fallback adapter as no GPU', auto, BOTH, { adapter: FALLBACK }, { mode: 'remote', model: 'remote', reason: 'software_gpu' }],
  ['auto goes remote on a phone', auto, BOTH, { adapter: gpu(), mobile: true }, { mode: 'remote', model: 'remote', reason: 'mobile' }],
  ['auto goes remote when bindings are below nano', auto, BOTH, { adapter: gpu({ maxStorageBufferBindingSize: 64 * MIB }) }, { mode: 'remote', model: 'remote', reason: 'gpu_too_small' }],
  ['auto goes remote when device memory is below nano', auto, BOTH, { adapter: gpu(), deviceMemoryGb: 1 }, { mode: 'remote', model: 'remote', reason: 'gpu_too_small' }],
  ['a remote-only plan wins over a capable GPU', auto, REMOTE_ONLY, { adapter: gpu(), benchmarkGflops: 9000 }, { mode: 'remote', model: 'remote', reason: 'plan_remote_only' }],
  ['a remote-only plan wins over forced local', { mode: 'local', model: 'quality' }, REMOTE_ONLY, { adapter: gpu() }, { mode: 'remote', model: 'remote', reason: 'plan_remote_only' }],
  ['forced remote is honoured on a capable GPU', { mode: 'remote', model: 'auto' }, BOTH, { adapter: gpu() }, { mode: 'remote', model: 'remote', reason: 'requested' }],
  ['forced local without WebGPU is webgpu_unavailable', { mode: 'local', model: 'auto' }, BOTH, { adapter: null }, { ok: false, code: 'webgpu_unavailable' }],
  ['a local-only plan without WebGPU is webgpu_unavailable', auto, LOCAL_ONLY, { adapter: null }, { ok: false, code: 'webgpu_unavailable' }],
  ['a local-only plan with forced remote still runs locally', { mode: 'remote', model: 'auto' }, LOCAL_ONLY, { adapter: gpu() }, { mode: 'local', model: 'quality', reason: 'plan_local_only' }],
  ['forced local on a software adapter runs nano', { mode: 'local', model: 'auto' }, BOTH, { adapter: SWIFTSHADER }, { mode: 'local', model: 'nano', reason: 'requested' }],
  ['an explicit model size wins over the tier', { mode: 'local', model: 'balanced' }, BOTH, { adapter: gpu({ maxStorageBufferBindingSize: 128 * MIB }) }, { mode: 'local', model: 'balanced', reason: 'requested' }],
  ["the plan's default model applies when the device can hold it", auto, { modes: 'auto', defaultModel: 'small' }, { adapter: gpu() }, { mode: 'local', model: 'small', reason: 'gpu_capable' }],
  ["the plan's default model is capped by the device tier", auto, { modes: 'auto', defaultModel: 'quality' }, { adapter: gpu({ maxStorageBufferBindingSize: 256 * MIB }) }, { mode: 'local', model: 'small', reason: 'gpu_capable' }],
  ['model auto maps 128 MiB bindings to nano', auto, BOTH, { adapter: gpu({ maxStorageBufferBindingSize: 128 * MIB }) }, { mode: 'local', model: 'nano', reason: 'gpu_capable' }],
  ['model auto maps 1 GiB bindings to balanced', auto, BOTH, { adapter: gpu({ maxStorageBufferBindingSize: 1024 * MIB }) }, { mode: 'local', model: 'balanced', reason: 'gpu_capable' }],
  ['a slow benchmark lowers the tier to nano', auto, BOTH, { adapter: gpu(), benchmarkGflops: 40 }, { mode: 'local', model: 'nano', reason: 'gpu_capable' }],
  ['a mid benchmark caps the tier at small', auto, BOTH, { adapter: gpu(), benchmarkGflops: 300 }, { mode: 'local', model: 'small', reason: 'gpu_capable' }],
  ['a 4 GB device caps the tier at small', auto, BOTH, { adapter: gpu(), deviceMemoryGb: 4 }, { mode: 'local', model: 'small', reason: 'gpu_capable' }],
  ['maxBufferSize bounds the tier like the binding size', auto, BOTH, { adapter: gpu({ maxBufferSize: 256 * MIB }) }, { mode: 'local', model: 'small', reason: 'gpu_capable' }],
];

describe('selectMode', () => {
  for (const [label, req, plan, device, expected] of TABLE) {
    it(label, () => {
      const result = selectMode(req, plan, device);
      if ((expected as { ok?: boolean }).ok === false) {
        expect(result.ok).to.equal(false);
        if (!result.ok) {
          expect(result.code).to.equal((expected as { code: string }).code);
          expect(result.reason).to.match(/WebGPU/);
        }
      } else {
        expect(result).to.deep.equal({ ok: true, value: expected });
      }
    });
  }

  it('never picks local for auto on a software adapter, whatever else the profile says', () => {
    fc.assert(fc.property(fc.record({ benchmarkGflops: fc.option(fc.double({ min: 0, max: 1e5, noNaN: true }), { nil: undefined }), deviceMemoryGb: fc.option(fc.constantFrom(0.5, 1, 2, 4, 8), { nil: undefined }) }), fc.constantFrom(SWIFTSHADER, FALLBACK), (extra, adapter) => {
      const r = selectMode(auto, BOTH, { adapter, ...extra });
      return r.ok && r.value.mode === 'remote';
    }));
  });

  it('always returns local with a model size, or remote with model "remote"', () => {
    const arbAdapter = fc.option(fc.record({ isFallback: fc.boolean(), vendor: fc.string(), architecture: fc.string(), description: fc.string(), maxBufferSize: fc.nat(), maxStorageBufferBindingSize: fc.nat(), shaderF16: fc.boolean() }), { nil: null });
    fc.assert(fc.property(
      fc.constantFrom<ModeOption>('auto', 'local', 'remote'), fc.constantFrom<ModelOption>('auto', 'nano', 'small', 'balanced', 'quality'),
      fc.constantFrom<ModeOption>('auto', 'local', 'remote'), fc.constantFrom<ModelOption>('auto', 'nano', 'quality'), arbAdapter, fc.boolean(),
      (mode, model, planModes, defaultModel, adapter, mobile) => {
        const r = selectMode({ mode, model }, { modes: planModes, defaultModel }, { adapter, mobile });
        if (!r.ok) return r.code === 'webgpu_unavailable' && adapter === null;
        return r.value.mode === 'remote' ? r.value.model === 'remote' && planModes !== 'local' : ['nano', 'small', 'balanced', 'quality'].includes(r.value.model) && planModes !== 'remote';
      },
    ));
  });
});

describe('deviceTier', () => {
  it('is null below the WebGPU default binding size of 128 MiB', () => {
    expect(deviceTier(gpu({ maxStorageBufferBindingSize: 127 * MIB }), { adapter: null })).to.equal(null);
  });
});

describe('isSoftwareAdapter', () => {
  for (const description of ['SwiftShader Device', 'llvmpipe (LLVM 15.0.6, 256 bits)', 'Microsoft Basic Render Driver']) {
    it(`recognises ${description}`, () => {
      expect(isSoftwareAdapter(gpu({ description }))).to.equal(true);
    });
  }
  it('does not flag a hardware adapter', () => {
    expect(isSoftwareAdapter(gpu({ vendor: 'apple', architecture: 'metal-3', description: 'Apple M2' }))).to.equal(false);
  });
});
