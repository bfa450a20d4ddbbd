/** The fuzz test's fixed seed; `FC_SEED=<integer>` replays another run (fast-check prints the seed of a failure). */
export const DEFAULT_FUZZ_SEED = 20_260_511;

/** The seed of this run: FC_SEED when set, else the committed one. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FC_SEED?.trim();
  if (!raw) return DEFAULT_FUZZ_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got "${raw}"`);
  return seed;
}
