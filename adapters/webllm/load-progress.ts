import type { LoadProgress } from './local-engine.js';

/** Share of the bar given to downloading the weights; the rest is copying them into GPU memory. */
export const DOWNLOAD_SHARE = 0.8;

/**
 * Turns WebLLM's `initProgressCallback` reports into one bar that only moves forward. WebLLM restarts its `progress`
 * at 0 for each phase ("Fetching param cache[i/n]" while downloading, "Loading model from cache[i/n]" while uploading
 * to the GPU, then "Finish loading"); a cached model skips the first phase and starts at DOWNLOAD_SHARE.
 */
export function createProgressMapper(): (report: { progress: number; text: string }) => LoadProgress {
  let best = 0;
  return ({ progress, text }) => {
    const p = Number.isFinite(progress) ? Math.min(1, Math.max(0, progress)) : 0;
    let value = best;
    if (/^Fetching param cache/i.test(text)) value = p * DOWNLOAD_SHARE;
    else if (/^Loading model from cache/i.test(text)) value = DOWNLOAD_SHARE + p * (1 - DOWNLOAD_SHARE);
    else if (/^Finish loading/i.test(text)) value = 1;
    best = Math.max(best, value);
    return { loaded: best, total: 1, text };
  };
}
