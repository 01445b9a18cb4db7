/**
 * Verification robustness on real documents (../shared/corpus): the corpus is ingested into a
 * temporary workspace through the services, ~30 passages of 8–40 words are sampled (seeded) from
 * each document's stored text, and citations are written the way people and AI systems write them:
 * verbatim, with the PDF's line breaks and hyphens removed, ligatures expanded, quotes and dashes
 * swapped, whitespace collapsed, typos, elisions, trimmed quotes, page-spanning quotes, wrong or
 * absent pages, page labels, loose source names, titles, hashes; plus negatives (shuffled words,
 * a passage cited to the wrong document, a changed number). Each citation is parsed by the import
 * code (native JSON or Markdown) and verified by the Verifier, one at a time.
 *
 * No goals are imposed except one: no negative may come out verified, verified_elsewhere or partial.
 * Run: node_modules/.bin/node bench/run.ts verification-corpus
 * EVIDESK_BENCH_DUMP=FILE writes every citation that missed (and every false positive) to FILE.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAnswer } from '../shared/imports/index.ts';
import { createServices, type Services } from '../electron/services/create-services.ts';
import type { Platform } from '../electron/services/platform.ts';
import { AnchoringStore } from '../electron/services/store/anchoring-store.ts';
import { SearchStore } from '../electron/services/store/search-store.ts';
import type { SegmentRow, SourceRow } from '../electron/services/store/sources-store.ts';
import { citationInputs, Verifier, type CitationOutcome } from '../electron/services/verification/verifier.ts';
import { rng, type Rng } from '../test/support/random.ts';
import { percentile, type Bench, type Figure } from './report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'docs');
const TITLE = 'Citation verification on the real corpus';
const PASSAGES_PER_DOC = 30;
const PAGE_BREAKS_PER_DOC = 10;
const NUMBER_PASSAGES_PER_DOC = 10;
const PASSWORDS: Record<string, string> = { 'R-intro.encrypted.pdf': 'evidence', 'issue6010_1.pdf': 'abc', 'issue21579.pdf': 'pässwört' };
/** Names people actually use for some of the files (the rest get generated loose names). */
const LOOSE_NAMES: Record<string, string> = {
  'r-fullrefman.pdf': 'R Full Reference Manual',
  'tracemonkey.pdf': 'tracemonkey',
  'freeculture.pdf': 'free culture.pdf',
  'debian-constitution.txt': 'Debian Constitution',
  'twenty-years-of-pandoc.md': 'Twenty years of pandoc',
  'un-icerd-toc.docx': 'UN ICERD TOC',
  'pdkids.pdf': 'PD Kids',
  'octave.pdf': 'Octave',
  'lshort-zh-cn.pdf': 'LShort zh_CN',
  'docx4j-tables.docx': 'docx4j tables',
};

type Kind = 'positive' | 'negative' | 'claim';

interface Piece {
  segId: number;
  start: number;
  end: number;
}

/**
 * The harness's own notion of "the same text" (its ground truth), independent of the engine's
 * normaliser so that every engine version is measured on the same citations: compatibility forms,
 * case, whitespace, hyphens, dashes and invisible characters aside.
 */
function groundKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u00AD\u200B-\u200F\u2010-\u2015\u2212\u2060\uFEFF-]+/g, '')
    .replace(/[“”„«»]/g, '"')
    .replace(/[‘’‚]/g, "'");
}

interface Doc {
  id: number;
  sha256: string;
  file: string;
  title: string | null;
  isPdf: boolean;
  segs: SegmentRow[];
  /** The document's text as ground-truth keys ("is this text really there?"). */
  dense: string;
}

interface Passage {
  doc: Doc;
  /** The original text, as stored (line breaks, hyphens, ligatures and all). */
  text: string;
  pieces: Piece[];
  page: number | null;
  label: string | null;
}

interface Cite {
  perturbation: string;
  kind: Kind;
  doc: Doc;
  /** The passage occurs more than once in its document: any of its places is the right one. */
  repeated?: boolean;
  /** The answer file as written, and its name (the parser detects the format by content). */
  content: string;
  fileName: string;
  /** Positives: where the text really is. */
  truth: Piece[] | null;
  /** The reference is deliberately ambiguous: source_unknown is the right answer. */
  expectUnknown?: boolean;
}

interface Row {
  n: number;
  verified: number;
  /** Status `verified`: found at the claimed location (or none was claimed). */
  here: number;
  right: number;
  partial: number;
  notFound: number;
  unknown: number;
  falsePositives: number;
  contradicted: number;
  times: number[];
}

type Failure = { perturbation: string; file: string; status: string; verdict: string; score: number; notes: string[]; content: string; truthPage: number | null; matchPage: number | null };

const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
/** A CJK character is a word of its own; elsewhere words are runs of non-space. */
const TOKEN_RE = new RegExp(`[${CJK}]|[^\\s${CJK}]+`, 'gu');
const CJK_PAIR_BREAK = new RegExp(`([${CJK}\\u3000-\\u303f\\uff00-\\uffef])\\s*\\n\\s*(?=[${CJK}\\u3000-\\u303f\\uff00-\\uffef])`, 'gu');

interface Tok {
  seg: number;
  start: number;
  end: number;
  letters: boolean;
}

function tokens(doc: Doc): Tok[] {
  const out: Tok[] = [];
  doc.segs.forEach((s, i) => {
    if (s.no_text_layer) return;
    for (const m of s.text.matchAll(TOKEN_RE)) out.push({ seg: i, start: m.index, end: m.index + m[0].length, letters: /\p{L}{2,}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(m[0]) });
  });
  return out;
}

function passageOf(doc: Doc, toks: Tok[], a: number, b: number): Passage {
  const pieces: Piece[] = [];
  for (let i = a; i <= b; i++) {
    const t = toks[i] as Tok;
    const seg = doc.segs[t.seg] as SegmentRow;
    const last = pieces[pieces.length - 1];
    if (last && last.segId === seg.id) last.end = t.end;
    else pieces.push({ segId: seg.id, start: t.start, end: t.end });
  }
  const byId = new Map(doc.segs.map((s) => [s.id, s]));
  const text = pieces.map((p) => (byId.get(p.segId) as SegmentRow).text.slice(p.start, p.end)).join('\n');
  const first = doc.segs[(toks[a] as Tok).seg] as SegmentRow;
  return { doc, text, pieces, page: first.page, label: first.page_label };
}

/** Passages of 8–40 words, mostly words with letters; PDF passages stay on one page. */
function samplePassages(r: Rng, doc: Doc, toks: Tok[], count: number, filter: (p: Passage) => boolean = () => true, minWords = 8): Passage[] {
  const out: Passage[] = [];
  const seen = new Set<number>();
  for (let tries = 0; out.length < count && tries < count * 40; tries++) {
    if (toks.length < minWords) break;
    const len = int(r, minWords, Math.min(40, toks.length));
    const a = int(r, 0, toks.length - len);
    const b = a + len - 1;
    if (seen.has(a)) continue;
    const ta = toks[a] as Tok;
    const tb = toks[b] as Tok;
    if (doc.isPdf && ta.seg !== tb.seg) continue;
    // Other formats: a passage may run over a few blocks (table cells, wrapped lines), not far.
    if (tb.seg - ta.seg > 6) continue;
    let letters = 0;
    for (let i = a; i <= b; i++) if ((toks[i] as Tok).letters) letters++;
    if (letters < len * 0.6) continue;
    const p = passageOf(doc, toks, a, b);
    if (!filter(p)) continue;
    seen.add(a);
    out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Page furniture: running heads and feet, page numbers. A quote that runs over a page break skips them.

function lineShape(line: string): string {
  return line.toLowerCase().replace(/\d+/g, '#').replace(/\b[ivxlcdm]+\b/g, '#').replace(/\s+/g, ' ').trim();
}

function furnitureShapes(doc: Doc): Set<string> {
  const counts = new Map<string, number>();
  let pages = 0;
  for (const s of doc.segs) {
    const lines = s.text.split('\n').filter((l) => l.trim());
    if (lines.length === 0) continue;
    pages++;
    const edge = new Set([...lines.slice(0, 2), ...lines.slice(-2)].map(lineShape));
    for (const e of edge) counts.set(e, (counts.get(e) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n >= 3 && n >= pages * 0.08).map(([k]) => k));
}

function isFurniture(line: string, seg: SegmentRow, shapes: Set<string>): boolean {
  const t = line.trim();
  if (!t) return true;
  if (/^[\divxlcdmIVXLCDM\s.–-]{1,12}$/.test(t)) return true;
  if (shapes.has(lineShape(t))) return true;
  const words = t.split(/\s+/);
  const marks = [String(seg.page ?? ''), seg.page_label ?? ''].filter((x) => x);
  return words.length <= 12 && marks.some((m) => words[0] === m || words[words.length - 1] === m);
}

/** Body text range of a page: furniture lines at its top and bottom (at most 3 each) left out. */
function bodyRange(seg: SegmentRow, shapes: Set<string>): { start: number; end: number } {
  const lines: { start: number; end: number }[] = [];
  let at = 0;
  for (const l of seg.text.split('\n')) {
    lines.push({ start: at, end: at + l.length });
    at += l.length + 1;
  }
  let a = 0;
  let b = lines.length;
  while (a < b && a < 3 && isFurniture(seg.text.slice(lines[a]?.start, lines[a]?.end), seg, shapes)) a++;
  while (b > a && lines.length - b < 3 && isFurniture(seg.text.slice(lines[b - 1]?.start, lines[b - 1]?.end), seg, shapes)) b--;
  return { start: lines[a]?.start ?? 0, end: lines[b - 1]?.end ?? 0 };
}

function pageBreakPassages(r: Rng, doc: Doc, count: number): Passage[] {
  if (!doc.isPdf) return [];
  const shapes = furnitureShapes(doc);
  const out: Passage[] = [];
  const pairs: number[] = [];
  for (let i = 0; i + 1 < doc.segs.length; i++) {
    const a = doc.segs[i] as SegmentRow;
    const b = doc.segs[i + 1] as SegmentRow;
    if (a.page !== null && b.page === a.page + 1 && a.text.trim().length > 200 && b.text.trim().length > 200) pairs.push(i);
  }
  for (let tries = 0; out.length < count && pairs.length > 0 && tries < count * 10; tries++) {
    const i = pick(r, pairs);
    const a = doc.segs[i] as SegmentRow;
    const b = doc.segs[i + 1] as SegmentRow;
    const ra = bodyRange(a, shapes);
    const rb = bodyRange(b, shapes);
    const ta = [...a.text.slice(ra.start, ra.end).matchAll(TOKEN_RE)].map((m) => ({ start: ra.start + m.index, end: ra.start + m.index + m[0].length }));
    const tb = [...b.text.slice(rb.start, rb.end).matchAll(TOKEN_RE)].map((m) => ({ start: rb.start + m.index, end: rb.start + m.index + m[0].length }));
    const na = int(r, 4, 18);
    const nb = int(r, 4, 18);
    if (ta.length < na || tb.length < nb) continue;
    const sa = ta[ta.length - na] as { start: number };
    const ea = ta[ta.length - 1] as { end: number };
    const eb = tb[nb - 1] as { end: number };
    const sb = tb[0] as { start: number };
    const text = `${a.text.slice(sa.start, ea.end)}\n${b.text.slice(sb.start, eb.end)}`;
    if ((text.match(/\p{L}{2,}/gu) ?? []).length < (na + nb) * 0.5) continue;
    out.push({ doc, text, pieces: [{ segId: a.id, start: sa.start, end: ea.end }, { segId: b.id, start: sb.start, end: eb.end }], page: a.page, label: a.page_label });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// How people and tools change a quote

/** Line breaks and line-end hyphens gone, as when a quote is retyped or pasted from a reflowed view. */
function dehyphenate(text: string): string {
  return text
    .replace(CJK_PAIR_BREAK, '$1')
    .replace(/(\p{L})[-\u00AD\u2010]\s*\n\s*(\p{Ll})/gu, '$1$2')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Line breaks gone but line-end hyphens kept ("well-\nknown" → "well-known"), as compounds are typed. */
function keepHyphens(text: string): string {
  return dehyphenate(text.replace(/(\p{L})([-\u2010])\s*\n\s*(\p{L})/gu, '$1$2$3'));
}

function expandLigatures(text: string): string {
  // Latin ligatures and Arabic presentation forms: what a person types instead.
  return text.replace(/[\uFB00-\uFB06\uFB50-\uFDFF\uFE70-\uFEFF]/g, (c) => c.normalize('NFKC'));
}

function swapQuotesAndDashes(text: string): string {
  // Both ways: curly quotes become straight, straight ones curly; dashes become "--" / "-" and back.
  let open = true;
  return text.replace(/[“”„‘’"—–]|(?<=\p{L})'(?=\p{L})| - /gu, (c) => {
    switch (c) {
      case '“': case '”': case '„': return '"';
      case '‘': case '’': return "'";
      case '—': return '--';
      case '–': return '-';
      case ' - ': return ' – ';
      case "'": return '’';
      default:
        open = !open;
        return open ? '”' : '“';
    }
  });
}

function typos(r: Rng, text: string, rate: number): string {
  const chars = [...text];
  const letters = chars.map((c, i) => (/\p{L}/u.test(c) ? i : -1)).filter((i) => i > 0 && i < chars.length - 1);
  const n = Math.max(1, Math.round(letters.length * rate));
  for (let k = 0; k < n && letters.length > 0; k++) {
    const i = pick(r, letters);
    const op = r();
    const c = chars[i] ?? '';
    if (!/\p{L}/u.test(c)) continue;
    if (op < 0.4) chars[i] = c === 'e' ? 'a' : 'e';
    else if (op < 0.65) chars[i] = '';
    else if (op < 0.85) chars[i] = c + c;
    else if (/\p{L}/u.test(chars[i + 1] ?? '')) {
      chars[i] = chars[i + 1] ?? '';
      chars[i + 1] = c;
    }
  }
  return chars.join('');
}

const ELLIPSES = [' … ', ' ... ', '...', ' [...] ', ' […] '];

function elide(r: Rng, text: string): string | null {
  const words = text.split(' ');
  if (words.length < 14) return null;
  const keepA = int(r, 4, Math.floor(words.length * 0.4));
  const keepB = int(r, 4, Math.floor(words.length * 0.4));
  if (keepA + keepB >= words.length - 1) return null;
  return `${words.slice(0, keepA).join(' ')}${pick(r, ELLIPSES)}${words.slice(words.length - keepB).join(' ')}`;
}

function trimmed(r: Rng, text: string): string {
  return `${pick(r, ['…', '...', '... '])}${text}${pick(r, ['…', '...', ' ...'])}`;
}

function changeNumber(r: Rng, text: string): string | null {
  const nums = [...text.matchAll(/(?<![\d.,])\d+(?![\d])/g)];
  if (nums.length === 0) return null;
  const m = pick(r, nums);
  const v = Number(m[0]);
  const changed = String(v + int(r, 1, 9) * (v >= 10 ? int(r, 1, 3) : 1));
  return text.slice(0, m.index) + changed + text.slice(m.index + m[0].length);
}

function shuffleWords(r: Rng, text: string): string | null {
  const words = text.split(' ');
  if (words.length < 8) return null;
  // "test test Test test" shuffled is the same text: only varied wording makes a fabrication.
  if (new Set(words.map((w) => w.toLowerCase())).size < words.length * 0.6) return null;
  for (let i = words.length - 1; i > 0; i--) {
    const j = int(r, 0, i);
    [words[i], words[j]] = [words[j] as string, words[i] as string];
  }
  const out = words.join(' ');
  return out === text ? null : out;
}

// ---------------------------------------------------------------------------------------------
// Answer files

interface SourceSpec {
  file?: string;
  title?: string;
  sha256?: string;
}

function nativeAnswer(claim: string, quote: string, source: SourceSpec, locator: Record<string, unknown>): string {
  return JSON.stringify({
    format: 'evidence-desk/answer@1',
    question: 'What does the source say?',
    answer: `${claim} [1]`,
    citations: [{ marker: '1', claim, quote, source, locator }],
  });
}

/** A Markdown answer: the reference definition as people write it ("quote" — source, p. iv). */
function markdownAnswer(claim: string, quote: string, sourceText: string): string | null {
  if (/[“”\n]/.test(quote)) return null;
  return `Question: What does the source say?\n\n${claim.replace(/\[/g, '(').replace(/\]/g, ')')} [1]\n\n[1]: “${quote}” — ${sourceText}\n`;
}

function looseName(doc: Doc): string {
  const hand = LOOSE_NAMES[doc.file];
  if (hand) return hand;
  const stem = doc.file.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  // "HR_Policy.pdf" → "HR Policy": separators become spaces, words capitalised.
  return stem
    .split(/[-_.\s]+/)
    .filter((w) => w)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

function compactName(s: string): string {
  return s.toLowerCase().replace(/\.[a-z0-9]{1,5}$/, '').replace(/[^\p{L}\p{N}]+/gu, '');
}

function goodTitle(t: string | null): t is string {
  return !!t && t.trim().length >= 6 && !/^(untitled|microsoft word|this is style|producer)/i.test(t.trim());
}

// ---------------------------------------------------------------------------------------------

function emptyRow(): Row {
  return { n: 0, verified: 0, here: 0, right: 0, partial: 0, notFound: 0, unknown: 0, falsePositives: 0, contradicted: 0, times: [] };
}

function overlaps(o: CitationOutcome, truth: Piece[]): boolean {
  const m = o.match;
  if (!m) return false;
  const got: Piece[] = [{ segId: m.segment.id, start: m.start, end: m.end }];
  if (m.endSegment) got.push({ segId: m.endSegment.id, start: m.endStart ?? 0, end: m.endOffset ?? 0 });
  return got.some((g) => truth.some((t) => t.segId === g.segId && g.start < t.end && t.start < g.end));
}

async function ingestCorpus(services: Services): Promise<string[]> {
  const files = fs.readdirSync(CORPUS).sort();
  const plain = files.filter((f) => !PASSWORDS[f]).map((f) => path.join(CORPUS, f));
  const notes: string[] = [];
  const results = [await services.ingest.ingest({ paths: plain })];
  for (const [f, password] of Object.entries(PASSWORDS)) {
    if (files.includes(f)) results.push(await services.ingest.ingest({ paths: [path.join(CORPUS, f)], password }));
  }
  for (const r of results) for (const f of r.files) if (!f.ok) notes.push(`${path.basename(f.path)}: ${f.error.code}`);
  return notes;
}

function loadDocs(services: Services, anchoring: AnchoringStore): Doc[] {
  const rows: SourceRow[] = services.sources.list();
  return rows
    .map((s) => {
      const segs = anchoring.allSegments(s.id);
      return { id: s.id, sha256: s.sha256, file: s.file_name, title: s.title, isPdf: s.kind === 'pdf', segs, dense: segs.map((g) => groundKey(g.text)).join('') };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** Whether the text truly occurs in the document (spacing and case aside). */
function occursIn(doc: Doc, text: string): boolean {
  const n = groundKey(text);
  return n.length > 0 && doc.dense.includes(n);
}

function buildCites(r: Rng, docs: Doc[]): Cite[] {
  const cites: Cite[] = [];
  const withText = docs.filter((d) => d.dense.length >= 60);
  const compactCounts = new Map<string, number>();
  for (const d of docs) compactCounts.set(compactName(d.file), (compactCounts.get(compactName(d.file)) ?? 0) + 1);
  const titleCounts = new Map<string, number>();
  for (const d of docs) if (d.title) titleCounts.set(d.title.toLowerCase(), (titleCounts.get(d.title.toLowerCase()) ?? 0) + 1);

  for (const doc of withText) {
    const toks = tokens(doc);
    const passages = samplePassages(r, doc, toks, PASSAGES_PER_DOC);
    const add = (perturbation: string, kind: Kind, content: string | null, truth: Piece[] | null, fileName = 'answer.json', extra: Partial<Cite> = {}): void => {
      if (content !== null) cites.push({ perturbation, kind, doc, content, fileName, truth, ...extra });
    };
    const repeatedIn = (text: string): boolean => {
      const n = groundKey(text);
      const at = doc.dense.indexOf(n);
      return at >= 0 && doc.dense.indexOf(n, at + 1) >= 0;
    };
    const page = (p: Passage): Record<string, unknown> => (p.page !== null ? { page: p.page } : {});
    const file = { file: doc.file };
    for (const p of passages) {
      const flat = dehyphenate(p.text);
      const claim = flat;
      const before = cites.length;
      add('verbatim', 'positive', nativeAnswer(claim, p.text, file, page(p)), p.pieces);
      add('line breaks and hyphens removed', 'positive', nativeAnswer(claim, flat, file, page(p)), p.pieces);
      const kept = keepHyphens(p.text);
      if (kept !== flat) add('line breaks removed, line-end hyphens kept', 'positive', nativeAnswer(claim, kept, file, page(p)), p.pieces);
      const lig = expandLigatures(p.text);
      if (lig !== p.text) add('ligatures / presentation forms expanded', 'positive', nativeAnswer(claim, lig, file, page(p)), p.pieces);
      const sw = swapQuotesAndDashes(p.text);
      if (sw !== p.text) add('quotes and dashes swapped', 'positive', nativeAnswer(claim, sw, file, page(p)), p.pieces);
      add('whitespace collapsed', 'positive', nativeAnswer(claim, p.text.replace(/\s+/g, ' ').trim(), file, page(p)), p.pieces);
      add('typos (~3% of letters)', 'positive', nativeAnswer(claim, typos(r, flat, 0.03), file, page(p)), p.pieces);
      const el = elide(r, flat);
      if (el) add('middle elided (… / ... / [...])', 'positive', nativeAnswer(claim, el, file, page(p)), p.pieces);
      add('trimmed, mid-sentence with ellipses', 'positive', nativeAnswer(claim, trimmed(r, flat), file, page(p)), p.pieces);
      if (doc.isPdf && p.page !== null) {
        const pages = doc.segs.length;
        const off = p.page > 1 && (r() < 0.5 || p.page >= pages) ? p.page - 1 : p.page + 1;
        add('page off by one', 'positive', nativeAnswer(claim, p.text, file, { page: off }), p.pieces);
        add('page absent', 'positive', nativeAnswer(claim, p.text, file, {}), p.pieces);
        if (p.label && p.label !== String(p.page) && /^[A-Za-z0-9-]+$/.test(p.label)) {
          add('page given as its label (p. iv, p. T-3, printed number)', 'positive', markdownAnswer(claim, flat, `${doc.file}, p. ${p.label}`), p.pieces, 'answer.md');
        }
      }
      const loose = looseName(doc);
      const ambiguous = (compactCounts.get(compactName(loose)) ?? 0) > 1 || docs.filter((d) => compactName(d.file) === compactName(loose)).length > 1;
      const looseMd = markdownAnswer(claim, flat, `${loose}${p.page !== null ? `, p. ${p.page}` : ''}`);
      if (ambiguous) add('source: ambiguous loose name → source_unknown', 'negative', looseMd, null, 'answer.md', { expectUnknown: true });
      else add('source: loose name (R Full Reference Manual, free culture.pdf)', 'positive', looseMd, p.pieces, 'answer.md');
      if (goodTitle(doc.title) && (titleCounts.get(doc.title.toLowerCase()) ?? 0) === 1) {
        add('source: title from metadata', 'positive', nativeAnswer(claim, p.text, { title: doc.title }, page(p)), p.pieces);
      }
      add('source: sha256', 'positive', nativeAnswer(claim, p.text, { sha256: doc.sha256 }, page(p)), p.pieces);

      // Negatives.
      const shuffled = shuffleWords(r, flat);
      if (shuffled && !occursIn(doc, shuffled)) add('NEG shuffled words of a real passage', 'negative', nativeAnswer(shuffled, shuffled, file, page(p)), null);
      const other = pick(r, withText.filter((d) => d !== doc && compactName(d.file).slice(0, 12) !== compactName(doc.file).slice(0, 12)));
      if (other && !occursIn(other, flat)) {
        add('NEG passage of document A cited to document B', 'negative', nativeAnswer(claim, flat, { file: other.file }, {}), null, 'answer.json', { doc: other });
      }
      if (repeatedIn(p.text)) for (let i = before; i < cites.length; i++) (cites[i] as Cite).repeated = true;
    }
    for (const p of pageBreakPassages(r, doc, PAGE_BREAKS_PER_DOC)) {
      add('spanning a page break (furniture skipped)', 'positive', nativeAnswer(dehyphenate(p.text), dehyphenate(p.text), file, page(p)), p.pieces);
    }
    for (const p of samplePassages(r, doc, toks, NUMBER_PASSAGES_PER_DOC, (q) => /(?<![\p{L}\d])\d{1,4}(?![\d\p{L}])/u.test(q.text) && !/[{}\\<>=]/.test(q.text))) {
      const flat = dehyphenate(p.text);
      const changed = changeNumber(r, flat);
      if (!changed || occursIn(doc, changed)) continue;
      add('NEG quote and claim with one number changed', 'negative', nativeAnswer(changed, changed, file, page(p)), null);
      add('CLAIM true quote, claim with one number changed', 'claim', nativeAnswer(changed, flat, file, page(p)), p.pieces);
    }
  }
  return cites;
}

function table(rows: Map<string, Row>, order: string[]): string {
  const pct = (a: number, n: number): string => (n === 0 ? '–' : `${((100 * a) / n).toFixed(1)}%`);
  const lines = [
    '| perturbation | n | verified (incl. elsewhere) | at claimed location | right location | partial | not_found | source_unknown | false positives | contradicted | p95 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const name of order) {
    const r = rows.get(name);
    if (!r) continue;
    const sorted = [...r.times].sort((a, b) => a - b);
    lines.push(
      `| ${name} | ${r.n} | ${pct(r.verified, r.n)} | ${pct(r.here, r.n)} | ${pct(r.right, r.n)} | ${pct(r.partial, r.n)} | ${pct(r.notFound, r.n)} | ${pct(r.unknown, r.n)} | ${r.falsePositives} | ${pct(r.contradicted, r.n)} | ${percentile(sorted, 95).toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}

export const bench: Bench = async () => {
  if (!fs.existsSync(CORPUS)) {
    process.stderr.write(`verification-corpus: ${CORPUS} is absent; nothing to measure.\n`);
    return [{ title: TITLE, figures: [], notes: [`../shared/corpus is absent (looked in ${CORPUS}): this bench needs the real corpus and measured nothing`] }];
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-corpus-'));
  const platform: Platform = { mode: 'cli', chooseFiles: () => Promise.resolve([]), revealInFolder: () => Promise.resolve() };
  const services = createServices(platform, path.join(dir, 'workspace'));
  try {
    const t0 = performance.now();
    const failedIngest = await ingestCorpus(services);
    const ingestS = (performance.now() - t0) / 1000;
    const anchoring = new AnchoringStore(services.db);
    const verifier = new Verifier(anchoring, new SearchStore(services.db));
    const docs = loadDocs(services, anchoring);
    const cites = buildCites(rng(20260511), docs);

    // Warm-up: JIT and the SQLite page cache.
    for (const c of cites.slice(0, 40)) {
      const input = citationInputs(parseAnswer(c.content, c.fileName))[0];
      if (input) verifier.verifyCitation(input);
    }

    const rows = new Map<string, Row>();
    const order: string[] = [];
    const perDoc = new Map<string, Map<string, { n: number; ok: number }>>();
    const failures: Failure[] = [];
    for (const c of cites) {
      const t = performance.now();
      const answer = parseAnswer(c.content, c.fileName);
      const input = citationInputs(answer)[0];
      if (!input) throw new Error(`no citation parsed from ${c.content.slice(0, 200)}`);
      const o = verifier.verifyCitation(input);
      const ms = performance.now() - t;
      if (!rows.has(c.perturbation)) {
        rows.set(c.perturbation, emptyRow());
        order.push(c.perturbation);
      }
      const row = rows.get(c.perturbation) as Row;
      row.n++;
      row.times.push(ms);
      const found = o.status === 'verified' || o.status === 'verified_elsewhere';
      if (found) row.verified++;
      if (o.status === 'verified') row.here++;
      if (o.status === 'partial') row.partial++;
      if (o.status === 'not_found') row.notFound++;
      if (o.status === 'source_unknown') row.unknown++;
      if (o.verdict === 'contradicted') row.contradicted++;
      const rightSource = o.source?.id === c.doc.id;
      const right = found && rightSource && c.truth !== null && (overlaps(o, c.truth) || c.repeated === true);
      if (right) row.right++;
      let bad = false;
      if (c.kind === 'negative' && (found || o.status === 'partial')) {
        row.falsePositives++;
        bad = true;
      }
      // A positive's claim is its own passage: a contradiction there is a false one.
      if (c.kind === 'positive' && (!right || o.verdict === 'contradicted')) bad = true;
      if (c.kind === 'claim' && o.verdict !== 'contradicted') bad = true;
      // A changed number must also be called out, not only left unverified.
      if (c.kind === 'negative' && c.perturbation.includes('number') && o.verdict !== 'contradicted') bad = true;
      const docRow = perDoc.get(c.perturbation) ?? new Map<string, { n: number; ok: number }>();
      perDoc.set(c.perturbation, docRow);
      const d = docRow.get(c.doc.file) ?? { n: 0, ok: 0 };
      d.n++;
      if (!bad) d.ok++;
      docRow.set(c.doc.file, d);
      if (bad) {
        const truthSeg = c.truth ? c.doc.segs.find((s) => s.id === c.truth?.[0]?.segId) : undefined;
        failures.push({
          perturbation: c.perturbation,
          file: c.doc.file,
          status: o.status,
          verdict: o.verdict,
          score: o.score,
          notes: o.notes,
          content: c.content,
          truthPage: truthSeg?.page ?? null,
          matchPage: o.match?.page ?? null,
        });
      }
    }

    const figures: Figure[] = [];
    let falsePositives = 0;
    for (const name of order) {
      const r = rows.get(name) as Row;
      const sorted = [...r.times].sort((a, b) => a - b);
      if (name.startsWith('NEG') || name.includes('→ source_unknown')) {
        falsePositives += r.falsePositives;
        figures.push({ name: `${name}: false positives (of ${r.n})`, value: r.falsePositives, unit: 'citations', goal: { op: '<=', value: 0, of: 'value' } });
        if (name.includes('number')) figures.push({ name: `${name}: verdict contradicted`, value: (100 * r.contradicted) / Math.max(1, r.n), unit: '%' });
      } else if (name.startsWith('CLAIM')) {
        figures.push({ name: `${name}: quote verified`, value: (100 * r.verified) / Math.max(1, r.n), unit: '%' });
        figures.push({ name: `${name}: verdict contradicted`, value: (100 * r.contradicted) / Math.max(1, r.n), unit: '%' });
      } else {
        figures.push({ name: `${name}: verified (of ${r.n})`, value: (100 * r.verified) / Math.max(1, r.n), unit: '%' });
        figures.push({ name: `${name}: at the right location`, value: (100 * r.right) / Math.max(1, r.n), unit: '%' });
      }
      figures.push({ name: `${name}: p95 per citation`, value: percentile(sorted, 95), unit: 'ms' });
    }
    figures.push({ name: 'false positives, all negatives', value: falsePositives, unit: 'citations', goal: { op: '<=', value: 0, of: 'value' } });

    const tableText = table(rows, order);
    process.stderr.write(`\n${tableText}\n`);
    const notes = [
      `${docs.length} sources ingested in ${ingestS.toFixed(1)} s (${docs.filter((d) => d.dense.length >= 60).length} with text to quote); ${cites.length} citations${failedIngest.length ? `; not ingested: ${failedIngest.join(', ')}` : ''}`,
      ...tableText.split('\n'),
    ];
    // Where the misses are: the documents with the most, per perturbation.
    for (const name of order) {
      const worst = [...(perDoc.get(name) ?? new Map<string, { n: number; ok: number }>())]
        .filter(([, v]) => v.ok < v.n)
        .sort((a, b) => b[1].n - b[1].ok - (a[1].n - a[1].ok))
        .slice(0, 6)
        .map(([f, v]) => `${f} ${v.n - v.ok}/${v.n}`);
      if (worst.length) notes.push(`misses, ${name}: ${worst.join(', ')}`);
    }
    const dump = process.env.EVIDESK_BENCH_DUMP;
    if (dump) {
      fs.writeFileSync(dump, JSON.stringify(failures, null, 1));
      notes.push(`${failures.length} misses written to ${dump}`);
    }
    return [{ title: TITLE, figures, notes }];
  } finally {
    services.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
