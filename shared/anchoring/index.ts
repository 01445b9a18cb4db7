// The public face of anchoring; the modules behind it are internal.
export * from './normalise.ts';
export * from './context.ts';
export * from './match-types.ts';
export { clearNormalisationCache, defaultIsAdjacent, prepareSegments, type PreparedSegments } from './prepared-segments.ts';
export { candidateTerms, cjkNeedles, letterSpacedSpelling, ligatureSpellings, STOPWORDS } from './candidate-terms.ts';
export { effectiveLength, fuzzyErrorBudget } from './fuzzy-budget.ts';
export { ELISION_MAX_GAP, planQuote, splitElisions, type QuotePart, type QuotePlan } from './quote-parts.ts';
export { numberMismatch } from './number-check.ts';
export { findQuote } from './find-quote.ts';
export { searchableQuote } from './searchable-quote.ts';
