/**
 * Citation verification at workspace scale: five "PDF" sources of 1,000 pages of seeded
 * pseudo-prose (~12 MB of text, FTS populated through SourcesStore.insert), then citations with
 * exact, normalised and fuzzy (~3% typos) quotes, and whole paragraphs (1,500+ characters, ~2%
 * typos), half with the claimed page and half without,
 * verified one by one through the Verifier (resolve → candidates → anchor → status → verdict).
 * Run: node_modules/.bin/node bench/run.ts verification
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExtractedDocument } from '../electron/services/ingest/extracted.ts';
import { AnchoringStore } from '../electron/services/store/anchoring-store.ts';
import { openDatabase } from '../electron/services/store/database.ts';
import { SearchStore } from '../electron/services/store/search-store.ts';
import { SourcesStore } from '../electron/services/store/sources-store.ts';
import { Verifier, type CitationOutcome } from '../electron/services/verification/verifier.ts';
import { rng } from '../test/support/random.ts';
import { percentile, type Bench, type BenchSection } from './report.ts';

const SOURCES = 5;
const PAGES_PER_SOURCE = 1000;
const CITATIONS_PER_CASE = 300;

type Rng = () => number;
const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

const FUNCTION_WORDS = 'the of and to in a is that for on with as by at from or be this which are an it not will may shall must has have was were its their'.split(' ');
const NOUN_UNITS = ['days', 'weeks', 'months', 'years', 'percent', 'hours', 'employees', 'contracts', 'claims'];

/** Pseudo-English: syllable words with a Zipf-like pick, function words between them. */
function makeVocabulary(r: Rng, size: number): string[] {
  const onsets = ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'st', 'tr', 'pr', 'gr', 'ch', 'sh', 'fl', 'br', 'cl'];
  const nuclei = ['a', 'e', 'i', 'o', 'u', 'ea', 'ai', 'io', 'ou', 'ie'];
  const codas = ['', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'ct', 'st', 'ng', 'tion', 'ment'];
  const words = new Set<string>();
  while (words.size < size) {
    let w = '';
    for (let i = int(r, 1, 4); i > 0; i--) w += pick(r, onsets) + pick(r, nuclei) + pick(r, codas);
    if (w.length >= 3 && w.length <= 16) words.add(w);
  }
  return [...words];
}

function sentence(r: Rng, vocab: readonly string[]): string {
  const words: string[] = [];
  const n = int(r, 8, 26);
  for (let i = 0; i < n; i++) {
    if (r() < 0.35) words.push(pick(r, FUNCTION_WORDS));
    else if (r() < 0.04) words.push(`${int(r, 2, 400)} ${pick(r, NOUN_UNITS)}`);
    else words.push(vocab[Math.floor(vocab.length * Math.pow(r(), 2.2))] as string);
    if (r() < 0.06 && i < n - 1) words[words.length - 1] += ',';
  }
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

/** A page as extracted PDF text: lines of ~90 chars joined by "\n", a few hyphenated at the line end. */
function page(r: Rng, vocab: readonly string[], targetChars: number): string {
  const words: string[] = [];
  let len = 0;
  while (len < targetChars) {
    const s = sentence(r, vocab);
    words.push(...s.split(' '));
    len += s.length + 1;
  }
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line.length + w.length + 1 > 90) {
      if (w.length >= 8 && r() < 0.15) {
        const cut = int(r, 3, w.length - 3);
        lines.push(`${line} ${w.slice(0, cut)}-`);
        line = w.slice(cut);
        continue;
      }
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

interface Cite {
  quote: string;
  sha256: string;
  sourceId: number;
  page: number;
  claimPage: boolean;
}

/** Whole words of a page, with where they start and end. */
function wordSpans(text: string): { start: number; end: number }[] {
  return [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

function normaliseLike(r: Rng, exact: string): string {
  // What a person pasting from a viewer produces: hyphenation joined, spacing collapsed, case changed, curly quotes.
  let q = exact.replace(/-\n/g, '').replace(/\s+/g, ' ');
  q = q
    .split(' ')
    .map((w) => (r() < 0.15 ? w.toUpperCase() : r() < 0.1 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(r() < 0.3 ? '  ' : ' ');
  return r() < 0.3 ? `“${q}”` : q;
}

/** Random edits; with `lettersOnly`, never at a digit (a changed number is a misquote, not a typo). */
function typos(r: Rng, text: string, rate: number, lettersOnly = false): string {
  const chars = [...text];
  const n = Math.max(1, Math.round(chars.length * rate));
  for (let k = 0; k < n; k++) {
    const i = int(r, 1, chars.length - 2);
    if (lettersOnly && (/\d/.test(chars[i] ?? '') || /\d/.test(chars[i + 1] ?? ''))) continue;
    const op = r();
    if (op < 0.4) chars[i] = String.fromCharCode(97 + int(r, 0, 25));
    else if (op < 0.7) chars.splice(i, 1);
    else if (op < 0.9) chars.splice(i, 0, String.fromCharCode(97 + int(r, 0, 25)));
    else {
      const t = chars[i] as string;
      chars[i] = chars[i + 1] as string;
      chars[i + 1] = t;
    }
  }
  return chars.join('');
}

export const bench: Bench = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-verify-'));
  const db = openDatabase(dir);
  try {
    const r = rng(20240611);
    const vocab = makeVocabulary(r, 6000);
    const sources = new SourcesStore(db);
    const t0 = performance.now();
    let chars = 0;
    const texts: { id: number; sha256: string; pages: string[] }[] = [];
    for (let s = 0; s < SOURCES; s++) {
      const pages = Array.from({ length: PAGES_PER_SOURCE }, () => page(r, vocab, 2400));
      chars += pages.reduce((n, p) => n + p.length, 0);
      const sha256 = createHash('sha256').update(`bench-source-${s}`).digest('hex');
      const doc: ExtractedDocument = {
        kind: 'pdf',
        method: 'bench-generated',
        title: `Annual report ${2015 + s}`,
        pageCount: PAGES_PER_SOURCE,
        segments: pages.map((text, i) => ({ text, page: i + 1, blockType: 'page' as const })),
        warnings: [],
      };
      const id = sources.insert(
        { sha256, fileName: `annual-report-${2015 + s}.pdf`, byteSize: chars, path: `/bench/annual-report-${2015 + s}.pdf`, stat: { size: chars, mtimeMs: 0 }, doc, snapshot: null, predecessorId: null },
        new Date().toISOString(),
      );
      texts.push({ id, sha256, pages });
    }
    const buildMs = performance.now() - t0;

    const anchoring = new AnchoringStore(db);
    const verifier = new Verifier(anchoring, new SearchStore(db));
    const cites = (seed: number, minWords = 8, maxWords = 30): Cite[] => {
      const rr = rng(seed);
      return Array.from({ length: CITATIONS_PER_CASE }, (_, k) => {
        const src = pick(rr, texts);
        const p = int(rr, 0, src.pages.length - 1);
        const text = src.pages[p] as string;
        const spans = wordSpans(text);
        const len = Math.min(int(rr, minWords, maxWords), spans.length - 2);
        const a = int(rr, 0, spans.length - len - 1);
        const quote = text.slice(spans[a]?.start, spans[a + len - 1]?.end);
        return { quote, sha256: src.sha256, sourceId: src.id, page: p + 1, claimPage: k % 2 === 0 };
      });
    };
    const rq = rng(7);
    const cases: { name: string; goal: number; cites: Cite[] }[] = [
      { name: 'exact', goal: 10, cites: cites(1) },
      { name: 'normalised', goal: 10, cites: cites(2).map((c) => ({ ...c, quote: normaliseLike(rq, c.quote) })) },
      { name: 'fuzzy (~3% typos)', goal: 60, cites: cites(3).map((c) => ({ ...c, quote: typos(rq, c.quote.replace(/-\n/g, '').replace(/\s+/g, ' '), 0.03) })) },
      // A whole paragraph quoted with a few typos: 1,500+ characters.
      { name: 'long, fuzzy (250–300 words, ~2% typos)', goal: 60, cites: cites(5, 250, 300).map((c) => ({ ...c, quote: typos(rq, c.quote.replace(/-\n/g, '').replace(/\s+/g, ' '), 0.02, true) })) },
    ];
    const fabricated: Cite[] = cites(4).map((c) => {
      const words: string[] = [];
      for (let i = int(rq, 10, 25); i > 0; i--) words.push(pick(rq, vocab));
      return { ...c, quote: words.join(' ') };
    });

    const verify = (c: Cite): CitationOutcome =>
      verifier.verifyCitation({
        marker: '1',
        claim: c.quote.slice(0, 80),
        quote: c.quote,
        context: null,
        sourceRef: { sha256: c.sha256 },
        locator: c.claimPage ? { page: c.page } : {},
      });
    // Warm-up: JIT and SQLite page cache.
    for (const c of cites(99).slice(0, 30)) verify(c);

    const figures: BenchSection['figures'] = [];
    const notes: string[] = [];
    let belowThreshold = 0;
    let total = 0;
    let totalMs = 0;
    const run = (list: Cite[]) => {
      const times: number[] = [];
      const withPage: number[] = [];
      const withoutPage: number[] = [];
      let rightPlace = 0;
      const statuses = new Map<string, number>();
      for (const c of list) {
        const t = performance.now();
        const o = verify(c);
        const ms = performance.now() - t;
        times.push(ms);
        (c.claimPage ? withPage : withoutPage).push(ms);
        statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
        if (o.match && o.status !== 'not_found' && o.match.score < 0.75) belowThreshold++;
        if (o.match && o.match.score >= 0.9 && o.source?.id === c.sourceId && o.match.page === c.page) rightPlace++;
      }
      total += list.length;
      totalMs += times.reduce((a, b) => a + b, 0);
      const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
      return { times: sorted(times), withPage: sorted(withPage), withoutPage: sorted(withoutPage), rightPlace, statuses };
    };
    for (const c of cases) {
      const res = run(c.cites);
      figures.push({ name: `${c.name}: p50 per citation`, value: percentile(res.times, 50), unit: 'ms' });
      figures.push({ name: `${c.name}: p95 per citation`, value: percentile(res.times, 95), unit: 'ms', goal: { op: '<=', value: c.goal, of: 'value' } });
      figures.push({ name: `${c.name}: found on the true page`, value: (100 * res.rightPlace) / c.cites.length, unit: '%' });
      notes.push(
        `${c.name}: p95 ${percentile(res.withPage, 95).toFixed(2)} ms with the claimed page, ${percentile(res.withoutPage, 95).toFixed(2)} ms without; statuses ${JSON.stringify(Object.fromEntries(res.statuses))}`,
      );
    }
    const fab = run(fabricated);
    figures.push({ name: 'fabricated quotes (not found): p95 per citation', value: percentile(fab.times, 95), unit: 'ms' });
    notes.push(`fabricated: statuses ${JSON.stringify(Object.fromEntries(fab.statuses))}`);
    figures.push({ name: 'citations verified per second (all cases, one thread)', value: (1000 * total) / totalMs, unit: 'citations/s' });
    figures.push({ name: 'matches accepted with score below 0.75', value: belowThreshold, unit: 'citations', goal: { op: '<=', value: 0, of: 'value' } });
    notes.unshift(`workspace: ${SOURCES} sources × ${PAGES_PER_SOURCE} pages, ${(chars / 1e6).toFixed(1)} MB of text, built (with FTS) in ${(buildMs / 1000).toFixed(1)} s`);
    if (belowThreshold > 0) throw new Error(`${belowThreshold} quotes were accepted with a score below 0.75`);
    notes.push('no match was accepted below score 0.75');
    return [{ title: 'Citation verification (5,000 pages)', figures, notes }];
  } finally {
    db.close();
    // EVIDESK_BENCH_KEEP=1 keeps the workspace for profiling.
    if (process.env.EVIDESK_BENCH_KEEP) process.stdout.write(`kept ${dir}\n`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
};
