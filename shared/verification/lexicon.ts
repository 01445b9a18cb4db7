/**
 * What the claim checks ask of a dictionary: whether two words may mean the same and whether they
 * are opposites. The main process answers from WordNet (electron/services/verification/
 * wordnet-lexicon.ts); shared/ only holds the interface, so the renderer never loads the data.
 */

export interface Lexicon {
  /**
   * Whether the claim's word `claimWord` says what the evidence's word `evidenceWord` says: one of
   * their senses is shared, or the claim's is the broader one ("goal" for "aim", "animal" for "dog").
   */
  covers(claimWord: string, evidenceWord: string): boolean;
  /** Whether some sense of `a` is the opposite of some sense of `b` ("increase" / "decrease"). */
  opposite(a: string, b: string): boolean;
  /** Whether the word can be a verb or an adjective: what a claim asserts, not what it is about. */
  predicative(word: string): boolean;
  /** Whether the word, as written, reads as a verb (an inflected verb form, or a word WordNet knows only as a verb). */
  verbal(word: string): boolean;
  /** Whether some sense of the word is a noun. */
  noun(word: string): boolean;
  /**
   * Whether the word is a verb of removal or ending ("removes", "discontinues", "abolished"): what
   * it acts on is no longer there, as "no longer" says.
   */
  privative(word: string): boolean;
  /** Whether the word is only an adverb ("permanently", "rarely"): it says how, when or how much. */
  adverb(word: string): boolean;
  /** Whether the word names a person or a body of people ("buyer", "tenant", "board"). */
  agent(word: string): boolean;
  /** How many senses the word has (0 when unknown): a word of many senses says little on its own. */
  senseCount(word: string): number;
  /** Whether two words name different alternatives of one kind ("weekday" / "weekend", "first" / "second"). */
  alternatives(a: string, b: string): boolean;
}

/**
 * Prepositions and time words of direction that WordNet, a dictionary of content words, does not
 * hold as opposites. Closed-class words: this list is complete for the checks' purpose.
 */
const CLOSED_CLASS_OPPOSITES: readonly (readonly [string, string])[] = [
  ['before', 'after'],
  ['above', 'below'],
  ['over', 'under'],
  ['inside', 'outside'],
  ['prior', 'after'],
  ['prior', 'following'],
  ['before', 'following'],
  ['within', 'outside'],
  ['into', 'out'],
  ['up', 'down'],
  ['more', 'less'],
  ['more', 'fewer'],
  ['most', 'least'],
  ['many', 'few'],
];

/** The words of the closed-class list: stopwords the direction check still reads. */
export const CLOSED_CLASS_WORDS: ReadonlySet<string> = new Set(CLOSED_CLASS_OPPOSITES.flat());

export function closedClassOpposite(a: string, b: string): boolean {
  return CLOSED_CLASS_OPPOSITES.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
}

/** A lexicon that knows nothing: every check still runs, on stems alone. */
export const NO_LEXICON: Lexicon = {
  covers: () => false,
  opposite: (a, b) => closedClassOpposite(a, b),
  predicative: () => false,
  alternatives: () => false,
  verbal: () => false,
  senseCount: () => 0,
  agent: () => false,
  noun: () => false,
  adverb: () => false,
  privative: () => false,
};
