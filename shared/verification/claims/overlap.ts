/**
 * Which key words of a claim the evidence says too: the same stem, the same word spelt a little
 * differently, or a word of the same sense (a synonym, or a broader word) by the lexicon. Words of
 * the quote's own sentence count fully; words only in the wider context count half.
 */
import type { Lexicon } from '../lexicon.ts';
import type { Word } from './words.ts';

export interface TermMatch {
  word: Word;
  /** Where the evidence says it: in the quote's sentence, only around it, or nowhere. */
  where: 'core' | 'context' | null;
  /** The evidence words that say it (in the quote's sentence when there are any). */
  evidence: Word[];
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Same stem, a long shared beginning ("organisation" / "organization"), or a synonym / broader sense. */
export function sameTerm(c: Word, e: Word, lexicon: Lexicon): boolean {
  if (c.stem === e.stem || c.word === e.word) return true;
  if (c.stem.length >= 5 && e.stem.length >= 5 && commonPrefix(c.stem, e.stem) >= Math.max(5, Math.min(c.stem.length, e.stem.length) - 2)) return true;
  // Names are not words of a dictionary: "Apple" is no "fruit".
  if (c.name || e.name) return false;
  return lexicon.covers(c.word, e.word);
}

export function matchTerms(claim: readonly Word[], core: readonly Word[], context: readonly Word[], lexicon: Lexicon): TermMatch[] {
  return claim.map((word) => {
    const inCore = core.filter((e) => sameTerm(word, e, lexicon));
    if (inCore.length > 0) return { word, where: 'core' as const, evidence: inCore };
    const inContext = context.filter((e) => sameTerm(word, e, lexicon));
    return { word, where: inContext.length > 0 ? ('context' as const) : null, evidence: inContext };
  });
}

/** Share of the claim's key words the evidence says (context words count half); null without key words. */
export function overlapOf(matches: readonly TermMatch[]): number | null {
  if (matches.length === 0) return null;
  const got = matches.reduce((n, m) => n + (m.where === 'core' ? 1 : m.where === 'context' ? 0.5 : 0), 0);
  return got / matches.length;
}
