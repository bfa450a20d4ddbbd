/** Process CPU time in ms: on a shared machine, wall-clock would mostly measure the neighbours. */
export const cpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

/**
 * Minimum CPU ms of one pass of `fn`, over passes adding up to at least `budget` ms (after one warm-up pass).
 * `gc: true` collects garbage before each pass (needs node --expose-gc, which `npm run bench` passes).
 */
export function minCpuPass(fn: () => void, budget: number, options: { gc?: boolean } = {}): number {
  fn();
  let best = Infinity;
  let spent = 0;
  while (spent < budget) {
    if (options.gc) (globalThis as { gc?: () => void }).gc?.();
    const t = cpuMs();
    fn();
    const d = cpuMs() - t;
    best = Math.min(best, d);
    spent += d;
  }
  return best;
}
