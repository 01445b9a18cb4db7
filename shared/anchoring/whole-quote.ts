/** Every place a whole quote could be: exact and normalised occurrences, else fuzzy ones. */
import { DEFAULT_MAX_ERROR_RATE } from './match-types.ts';
import { budgetFor, effectiveLength } from './fuzzy-budget.ts';
import { type Candidate, keyOf, type SearchContext } from './candidates.ts';
import { exactCandidates, normalisedCandidates } from './literal-candidates.ts';
import { fuzzyWindows, tidyWindows } from './fuzzy-windows.ts';
import { fuzzyCandidates } from './fuzzy-candidates.ts';

/**
 * Every place `q` (normalised `nq`) could be: its exact and normalised occurrences (all scoring
 * 1, so the hint can choose), else its fuzzy ones, misquotes among them flagged.
 */
export function wholeCandidates(ctx: SearchContext, q: string, nq: string): Candidate[] {
  const { p, options } = ctx;
  const pooled = new Map<string, Candidate>();
  for (const c of exactCandidates(p, q)) pooled.set(keyOf(c), c);
  if (nq.length > 0) {
    for (const c of normalisedCandidates(p, nq, q)) if (!pooled.has(keyOf(c))) pooled.set(keyOf(c), c);
  }
  if (pooled.size > 0) return [...pooled.values()];
  if (options.fuzzy === false || effectiveLength(nq) < (options.minFuzzyLength ?? 20)) return [];
  const k = budgetFor(nq, options.maxErrorRate ?? DEFAULT_MAX_ERROR_RATE);
  const plan = fuzzyWindows(p, nq, k, ctx.hinted, options.fullScanMaxChars ?? 20_000);
  const found = new Map<string, Candidate>();
  const add = (cs: Candidate[]): void => {
    for (const c of cs) if (!found.has(keyOf(c))) found.set(keyOf(c), c);
  };
  for (const w of tidyWindows(p, plan.hinted)) add(fuzzyCandidates(p, [w], nq, k, ctx.minScore, false));
  add(fuzzyCandidates(p, tidyWindows(p, plan.main), nq, k, ctx.minScore, false));
  if (found.size === 0 && plan.weak.length > 0) add(fuzzyCandidates(p, tidyWindows(p, plan.weak), nq, k, ctx.minScore, true));
  return [...found.values()];
}
