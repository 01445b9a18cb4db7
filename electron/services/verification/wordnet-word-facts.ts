/**
 * What the cover check needs of one word, worked out once per word rather than once per word pair
 * (a cite compares every claim word with every evidence word: the same words meet many partners).
 * Each set answers one of the cover rules of wordnet-lexicon.ts by a lookup; the rules themselves
 * are unchanged (wordnet-lexicon.test.ts and the claim suites hold them).
 */
import type { WordNetFiles } from './wordnet-files.ts';

/** WordNet's lexicographer files of nouns of acts, events and processes (noun.act, noun.event, noun.process). */
const EVENT_NOUNS: readonly number[] = [4, 11, 22];
/** WordNet's lexicographer file of verbs of state (verb.stative). */
const STATIVE = 42;
/** Words with more senses than this are too vague to stand for a narrower word. */
const MAX_SENSES_TO_CLIMB = 12;

export const isVerb = (s: number): boolean => s >= 2e8 && s < 3e8;

export function eventNoun(files: WordNetFiles, s: number): boolean {
  return s < 2e8 && EVENT_NOUNS.includes(files.lexFile(s));
}

/** Each sense's rank among the word's senses of its part of speech (WordNet lists the commonest first). */
function ranks(senses: readonly number[]): number[] {
  const rankOf = new Map<number, number>();
  return senses.map((s) => {
    const pos = Math.floor(s / 1e8);
    const rank = rankOf.get(pos) ?? 0;
    rankOf.set(pos, rank + 1);
    return rank;
  });
}

/** Verb and adjective senses with an opposite, at the sense or one step above it: the directions they say. */
function poles(files: WordNetFiles, senses: readonly number[]): Set<number> {
  const out = new Set<number>();
  for (const s of senses) {
    if (s < 2e8 || s >= 4e8) continue;
    if (files.opposites(s).length > 0) out.add(s);
    for (const x of files.broader(s)) if (files.opposites(x).length > 0) out.add(x);
  }
  return out;
}

/** The words of a word's first `n` verb senses that are verbs of state. */
function stativeMembers(files: WordNetFiles, senses: readonly number[], n: number): string[] {
  return senses.filter(isVerb).slice(0, n).filter((s) => files.lexFile(s) === STATIVE).flatMap((s) => files.members(s));
}

/** The word as the claim's side of a pair. */
export interface ClaimFacts {
  senses: readonly number[];
  set: ReadonlySet<number>;
  /** Few enough senses to stand for a narrower word. */
  climb: boolean;
  /** The commonest verb sense. */
  verb: number | undefined;
  /** Senses one step above the word's verb senses (an evidence verb there is one step broader). */
  aboveVerbs: ReadonlySet<number>;
  /** The directions the word says (all its senses). */
  poles: ReadonlySet<number>;
  /** Words of its four commonest verb senses that are verbs of state. */
  stative: readonly string[];
}

export function claimFacts(files: WordNetFiles, senses: readonly number[]): ClaimFacts {
  const aboveVerbs = new Set<number>();
  for (const s of senses) if (isVerb(s)) for (const up of files.broader(s)) aboveVerbs.add(up);
  return {
    senses,
    set: new Set(senses),
    climb: senses.length <= MAX_SENSES_TO_CLIMB,
    verb: senses.find(isVerb),
    aboveVerbs,
    poles: poles(files, senses),
    stative: stativeMembers(files, senses, 4),
  };
}

/** The word as the evidence's side of a pair. */
export interface EvidenceFacts {
  senses: readonly number[];
  /** Its senses and what its verb senses entail: a claim sense here is said outright. */
  direct: ReadonlySet<number>;
  /** The first verb sense (whose definition's head verb names what it is), if any. */
  firstVerb: number | undefined;
  /** Senses one step above its senses (two for nouns), rare adjective and adverb senses left out. */
  above: ReadonlySet<number>;
  verbs: ReadonlySet<number>;
  /** Two steps above the commonest sense of each part of speech but nouns. */
  twoAboveFirst: ReadonlySet<number>;
  /** Its four commonest senses of each part of speech. */
  common: ReadonlySet<number>;
  /** The directions its common senses say. */
  poles: ReadonlySet<number>;
  /** Words of its two commonest verb senses that are verbs of state. */
  stative: ReadonlySet<string>;
  /** Senses derived from its verb senses, and from its senses that are nouns of an act or event. */
  fromVerbs: ReadonlySet<number>;
  fromEventNouns: ReadonlySet<number>;
}

export function evidenceFacts(files: WordNetFiles, senses: readonly number[]): EvidenceFacts {
  const rank = ranks(senses);
  const direct = new Set<number>();
  const above = new Set<number>();
  const verbs = new Set<number>();
  const twoAboveFirst = new Set<number>();
  const fromVerbs = new Set<number>();
  const fromEventNouns = new Set<number>();
  senses.forEach((s, i) => {
    const r = rank[i] as number;
    direct.add(s);
    if (isVerb(s)) {
      verbs.add(s);
      for (const x of files.entails(s)) direct.add(x);
      for (const d of files.derived(s)) fromVerbs.add(d);
    } else if (eventNoun(files, s)) for (const d of files.derived(s)) fromEventNouns.add(d);
    // An adjective's (or adverb's) rare sense leads to its head by similarity only loosely.
    if (s >= 3e8 && r >= 3) return;
    for (const up of files.broader(s)) {
      above.add(up);
      if (s >= 2e8 && r === 0) for (const up2 of files.broader(up)) twoAboveFirst.add(up2);
      if (s < 2e8) for (const up2 of files.broader(up)) above.add(up2);
    }
  });
  const common = senses.filter((_, i) => (rank[i] as number) < 4);
  return {
    senses,
    direct,
    firstVerb: senses.find(isVerb),
    above,
    verbs,
    twoAboveFirst,
    common: new Set(common),
    poles: poles(files, common),
    stative: new Set(stativeMembers(files, senses, 2)),
    fromVerbs,
    fromEventNouns,
  };
}
