/** How many edits the fuzzy stage may spend on a quote, by its length (CJK characters weigh more). */
import { DEFAULT_MAX_ERROR_RATE } from './match-types.ts';
import { isCjkCode } from './normalise.ts';

/**
 * Length of a normalised quote for deciding what fuzzy matching may do with it: a Han or kana
 * character says about as much as a short Latin word, so it counts three.
 */
export function effectiveLength(nq: string): number {
  let n = nq.length;
  for (let i = 0; i < nq.length; i++) if (isCjkCode(nq.charCodeAt(i))) n += 2;
  return n;
}

/**
 * Edits allowed for a normalised quote of length m: the full rate from 60 chars up, ramping down
 * to 5% at 20 chars, because a short quote with many edits matches unrelated text (a 25-char
 * quote with 4 edits "finds" any sentence sharing one long word).
 */
export function fuzzyErrorBudget(m: number, maxErrorRate: number = DEFAULT_MAX_ERROR_RATE): number {
  if (m >= 60) return Math.min(m - 1, Math.ceil(maxErrorRate * m));
  const low = Math.min(0.05, maxErrorRate);
  const rate = low + (maxErrorRate - low) * Math.max(0, (m - 20) / 40);
  return Math.max(1, Math.floor(rate * m));
}

/** The edit budget of a normalised quote: by its effective length, never above the rate per char. */
export function budgetFor(nq: string, maxErrorRate: number): number {
  const eff = effectiveLength(nq);
  if (eff === nq.length) return fuzzyErrorBudget(nq.length, maxErrorRate);
  return Math.min(fuzzyErrorBudget(eff, maxErrorRate), Math.max(1, Math.floor(nq.length * maxErrorRate)));
}
