/** A CDP CPU profile (Profiler.stop / Chromium trace), as far as the benches read it. */
export interface CpuProfile {
  readonly nodes: readonly { id: number; children?: number[]; callFrame: any }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/**
 * Adds a CPU profile's sampled time (ms × `scale`) to `self` (the sample's own frame) and `inclusive` (every frame on
 * its stack, each label once), by `label` of a node; samples whose node `skip` accepts are left out.
 */
export function addProfileTimes(
  cpu: CpuProfile,
  label: (node: any) => string,
  self: Map<string, number>,
  inclusive: Map<string, number>,
  options: { scale?: number; skip?: (node: any) => boolean } = {},
): void {
  const { scale = 1, skip = () => false } = options;
  const byId = new Map<number, any>(cpu.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of cpu.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  for (let i = 0; i < cpu.samples.length; i++) {
    const ms = ((cpu.timeDeltas[i + 1] ?? 0) / 1000) * scale;
    const node = byId.get(cpu.samples[i]!);
    if (!node || skip(node)) continue;
    const own = label(node);
    self.set(own, (self.get(own) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const l = label(byId.get(id));
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + ms);
    }
  }
}
