/** Every place a whole quote could be: exact and normalised occurrences, else fuzzy ones. */
import { DEFAULT_MAX_ERROR_RATE } from './match-types.ts';
import { budgetFor, effectiveLength } from './fuzzy-budget.ts';
import { type Candidate, keyOf, type SearchContext } from './candidates.ts';
import { exactCandidates, normalisedCandidates } from './literal-candidates.ts';
import { fuzzyWindows, tidyWindows } from './fuzzy-windows.ts';
import { fuzzyCandidates } from './fuzzy-candidates.ts';
import { letterSpacedCandidates } from './letter-spaced.ts';

// Punctuation at a quote's edges: a phrase lifted from a sentence ends where the quoter stops.
// Signs that carry meaning (%, $, §, #) are no punctuation here.
const EDGE_PUNCTUATION = /^[\s.,;:!?'"()[\]{}…-]+|[\s.,;:!?'"()[\]{}…-]+$/gu;
// Ligatures a PDF may draw as one glyph; when the glyph has no Unicode mapping the extracted text
// loses its letters ("nancial" for "financial", "o ce" for "office").
const LIGATURE_LETTERS = /ffi|ffl|ff|fi|fl/g;

/**
 * Literal occurrences of the quote as the source may hold it though the quoter wrote it
 * otherwise: without its edge punctuation (score 1), or without the letters of ligature glyphs
 * the PDF's text lost (each lost glyph costs what one edit costs).
 */
function variantCandidates(p: SearchContext['p'], nq: string, q: string, minScore: number): Candidate[] {
  const bare = nq.replace(EDGE_PUNCTUATION, '');
  if (bare !== nq && effectiveLength(bare) >= 4) {
    const found = normalisedCandidates(p, bare, q);
    if (found.length > 0) return found;
  }
  const lost = (nq.match(LIGATURE_LETTERS) ?? []).length;
  if (lost === 0 || bare.length < 8) return [];
  const score = 1 - lost / nq.length;
  if (score < minScore) return [];
  const out: Candidate[] = [];
  // The quote as written, then without its edge punctuation; the letters gone, or a space left.
  for (const text of [nq, bare]) {
    for (const variant of new Set([text.replace(LIGATURE_LETTERS, ''), text.replace(LIGATURE_LETTERS, ' ').replace(/ {2,}/g, ' ')])) {
      // What is left must still say something: most of the quote, several letters.
      const left = variant.trim();
      if (left.length < Math.max(8, nq.length / 2)) continue;
      for (const c of normalisedCandidates(p, left, q)) {
        c.score = score;
        c.errors = lost;
        out.push(c);
      }
    }
    if (out.length > 0) break;
  }
  return out;
}

/**
 * Every place `q` (normalised `nq`) could be: its exact and normalised occurrences (all scoring
 * 1, so the hint can choose), else the variants the source may hold (see variantCandidates),
 * else its fuzzy ones, misquotes among them flagged.
 */
export function wholeCandidates(ctx: SearchContext, q: string, nq: string): Candidate[] {
  const { p, options } = ctx;
  const pooled = new Map<string, Candidate>();
  for (const c of exactCandidates(p, q)) pooled.set(keyOf(c), c);
  if (nq.length > 0) {
    for (const c of normalisedCandidates(p, nq, q)) if (!pooled.has(keyOf(c))) pooled.set(keyOf(c), c);
  }
  // Letter-spaced words, in the source or the quote, with their gaps read otherwise.
  if (pooled.size === 0 && nq.length > 0) for (const c of letterSpacedCandidates(ctx, q, nq)) pooled.set(keyOf(c), c);
  // The variants too where nothing literal is at the claimed location: "Copyright Act." there may
  // be "Copyright Act," while another page has the full stop.
  const atHint = (c: Candidate): boolean => ctx.hinted.has(c.startSeg) || ctx.hinted.has(c.endSeg);
  const tryVariants = pooled.size === 0 || (ctx.hinted.size > 0 && ![...pooled.values()].some(atHint));
  if (tryVariants && nq.length > 0) for (const c of variantCandidates(p, nq, q, ctx.minScore)) if (!pooled.has(keyOf(c))) pooled.set(keyOf(c), c);
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
