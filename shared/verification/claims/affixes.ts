/**
 * Negation carried by a prefix or by a verb of removal.
 * A prefix: "unrelated" says "not related", "unpaid" "not paid", "inexpensive"
 * "not expensive". A word whose prefix the dictionary gives as the opposite of its base is read
 * as its base under a negation, so that "unrelated to" and "no link between" agree, and "unlawful"
 * and "lawful" clash as a denial would.
 */
import type { Lexicon } from '../lexicon.ts';
import { stem, type Word } from './words.ts';

const PREFIX = /^(un|non-?|in|im|il|ir|dis)(\p{L}{3,})$/u;

// Copulas: an adjective after one is what the sentence asserts ("were unrelated"), not a modifier ("unused leave").
const COPULA = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'remain', 'remains', 'remained', 'seem', 'seems', 'seemed', 'become', 'becomes', 'became']);

/**
 * The words with each prefixed opposite read as its negated base: adjectives after a copula only
 * ("the fee is unpaid"), where the prefix denies what the sentence asserts; not verbs ("disappear"
 * is no denial of "appear") nor modifiers ("unused leave" is a kind of leave).
 */
export function readAffixalNegation(words: readonly Word[], lexicon: Lexicon): Word[] {
  return words.map((w, i) => {
    if (w.minor || w.name || w.negator || !COPULA.has(words[i - 1]?.word ?? '') || lexicon.verbal(w.word)) return w;
    const m = PREFIX.exec(w.word);
    const base = m?.[2];
    if (!base || lexicon.senseCount(base) === 0 || !lexicon.opposite(w.word, base)) return w;
    return { ...w, word: base, stem: stem(base), negated: true, affixal: true };
  });
}

const PRIVATIVE_REACH = 4;

/**
 * The words a verb of removal or ending acts on ("removes support for Python"), in its clause, up
 * to a few words on: they are what "no longer" or "not" denies on the other side. Only to agree
 * with a denial: a privative verb never makes a contradiction by itself.
 */
export function readPrivation(words: readonly Word[], lexicon: Lexicon): Word[] {
  let left = 0;
  let clause = -1;
  return words.map((w) => {
    if (left > 0 && w.clause === clause && !w.negator) {
      left--;
      return w.minor ? w : { ...w, privated: true };
    }
    left = 0;
    if (!w.minor && !w.name && !w.negated && lexicon.privative(w.word)) {
      left = PRIVATIVE_REACH;
      clause = w.clause;
      return { ...w, privative: true };
    }
    return w;
  });
}
