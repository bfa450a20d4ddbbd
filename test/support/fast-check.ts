import fc from 'fast-check';

/**
 * fast-check for every property test: one fixed seed, so a run is repeatable and a failure reproduces, printed once
 * per process; `FC_SEED=<integer>` varies it (e.g. `FC_SEED=$RANDOM npm test` explores new inputs). A failure's
 * message carries the seed and path that replay it exactly. Test files import `fc` from here, never from
 * 'fast-check' directly (test/tooling/property-seeds.test.ts checks).
 */
export const DEFAULT_FC_SEED = 20_240_610;

/** The seed every property in this process runs with. */
export const FC_SEED = parseSeed(process.env.FC_SEED);

function parseSeed(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_FC_SEED;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(raw)}`);
  return n | 0; // fast-check's seeds are 32-bit
}

const globalKey = Symbol.for('kit.fast-check.seed-printed');
const holder = globalThis as { [globalKey]?: boolean };
if (!holder[globalKey]) {
  holder[globalKey] = true;
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: FC_SEED });
  console.log(`fast-check seed ${FC_SEED}${FC_SEED === DEFAULT_FC_SEED ? ' (the default; set FC_SEED to vary it)' : ' (from FC_SEED)'}`);
}

export { fc };
export default fc;
