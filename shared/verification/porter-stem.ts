/**
 * The Porter stemmer (the stemmer package) with its answers remembered: the claim checks stem every
 * word of a claim and of its evidence, and the same few thousand words come back cite after cite.
 * Bounded: forgotten all at once when full.
 */
import { stemmer } from 'stemmer';

const stems = new Map<string, string>();
const MAX_STEMS = 50_000;

export function porterStem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stems.size >= MAX_STEMS) stems.clear();
    stems.set(word, s);
  }
  return s;
}
