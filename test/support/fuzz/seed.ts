/**
 * The fast-check seed of a fuzz run: fixed for `npm test` so that a run is repeatable, or taken
 * from EVIDESK_FUZZ_SEED to replay a failure (fast-check prints the seed and path on failure).
 */
export function fuzzSeed(fallback = 20261124): number {
  const given = process.env.EVIDESK_FUZZ_SEED;
  return given !== undefined && /^-?\d+$/.test(given) ? Number(given) : fallback;
}
