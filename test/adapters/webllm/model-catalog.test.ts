import { expect } from 'chai';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { MODEL_SIZES } from '../../../core/config/types.js';
import { catalogEntryOf, WEBLLM_MODELS, webLlmModelId } from '../../../adapters/webllm/model-catalog.js';

// CONTRACT §8's VRAM targets per size, in MB, with the band a model may sit in to count as "about" that figure.
const TARGETS: Record<string, { about: number; min: number; max: number }> = {
  nano: { about: 400, min: 250, max: 650 },
  small: { about: 1000, min: 650, max: 1400 },
  balanced: { about: 2000, min: 1400, max: 3100 },
  quality: { about: 4000, min: 3100, max: 5000 },
};

describe('WEBLLM_MODELS', () => {
  type Record = { model_id: string; vram_required_MB?: number; required_features?: string[]; overrides?: { context_window_size?: number } };
  // web-llm's typings do not resolve under NodeNext (extensionless relative imports), hence the local record type.
  const records = new Map<string, Record>((prebuiltAppConfig.model_list as Record[]).map((r) => [r.model_id, r]));

  for (const size of MODEL_SIZES) {
    const choice = WEBLLM_MODELS[size];
    it(`names prebuilt WebLLM models with the installed package's VRAM and window when the size is ${size}`, () => {
      for (const format of ['f16', 'f32'] as const) {
        const record = records.get(choice[format]);
        expect(record, `${choice[format]} in prebuiltAppConfig`).to.not.equal(undefined);
        expect(record!.vram_required_MB).to.equal(choice.vramMb[format]);
        expect(record!.overrides?.context_window_size ?? 4096).to.equal(choice.contextWindowTokens);
      }
    });

    it(`uses q4f16 weights only where shader-f16 is promised and q4f32 needs no f16 when the size is ${size}`, () => {
      expect(choice.f16).to.match(/-q4f16_1-MLC$/);
      expect(choice.f32).to.match(/-q4f32_1-MLC$/);
      expect(choice.f16.replace('q4f16_1', 'q4f32_1')).to.equal(choice.f32);
      expect(records.get(choice.f32)!.required_features ?? []).to.not.include('shader-f16');
    });

    it(`stays near the contract's VRAM figure when the size is ${size}`, () => {
      const t = TARGETS[size]!;
      expect(choice.vramMb.f16).to.be.within(t.min, t.max);
      expect(choice.vramMb.f32).to.be.within(t.min, t.max + 300);
    });
  }

  it('grows with the size so a bigger tier never gets a smaller model', () => {
    const vram = MODEL_SIZES.map((s) => WEBLLM_MODELS[s].vramMb.f16);
    expect([...vram].sort((a, b) => a - b)).to.deep.equal(vram);
  });
});

describe('webLlmModelId', () => {
  it('picks the f16 build with shader-f16 and the f32 build without it', () => {
    for (const size of MODEL_SIZES) {
      expect(webLlmModelId(size, true)).to.equal(WEBLLM_MODELS[size].f16);
      expect(webLlmModelId(size, false)).to.equal(WEBLLM_MODELS[size].f32);
    }
  });
});

describe('catalogEntryOf', () => {
  it('finds the size of a catalog id and returns null for other ids', () => {
    expect(catalogEntryOf('Llama-3.2-1B-Instruct-q4f32_1-MLC')?.size).to.equal('small');
    expect(catalogEntryOf('gemma-2-2b-it-q4f16_1-MLC')).to.equal(null);
  });
});
