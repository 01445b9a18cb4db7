/**
 * Citation verification (DESIGN.md §5): resolve each citation's source, pick candidate segments
 * (the claimed location and its neighbours, then FTS-narrowed passages of that source, then the
 * whole source when it is small), anchor the quote with the shared engine, and turn the anchor
 * into a status, a claim verdict and notes. Reads only: storing is the caller's business.
 */
import { candidateTerms, cjkNeedles, findQuote, STOPWORDS, wordDiff, type QuoteHint, type QuoteMatch, type Segment } from '../../../shared/anchoring/index.ts';
import type { ClaimedLocator, ImportedAnswer, SourceRef } from '../../../shared/imports/model.ts';
import { splitSentences } from '../../../shared/imports/sentences.ts';
import { VERIFICATION_FORMAT, type VerificationCitation, type VerificationMatch, type VerificationResult, type VerificationRiskFlag } from '../../../shared/verification/result-schema.ts';
import {
  citationStatus,
  claimsLocation,
  claimVerdict,
  keyTerms,
  summariseLedger,
  VERIFIED_SCORE,
  type CitationStatus,
  type ClaimVerdict,
} from '../../../shared/verification/index.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import type { NewResult } from '../store/answers-store.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SegmentRow } from '../store/sources-store.ts';

export const VERIFIER_NAME = 'evidesk-verifier@1';

/** Sources up to this many characters are scanned whole when the narrowed search finds nothing. */
export const SMALL_SOURCE_CHARS = 400_000;
/** FTS-ranked passages of the cited source handed to the anchoring engine. */
const FTS_CANDIDATES = 24;
/** The best FTS candidates also bring their neighbours: a quote may run across a page break. */
const FTS_WITH_NEIGHBOURS = 4;
/** Short blocks (table cells, list items) bring up to this many neighbours each way, to cover the quote. */
const MAX_BLOCK_NEIGHBOURS = 12;
/** Sentences around a match, up to this many characters each side, are the verdict's context. */
const CONTEXT_REACH = 400;

export interface AnchorSegment extends Segment {
  id: number;
  text: string;
  page: number | null;
  ordinal: number;
  pageLabel: string | null;
  paragraph: number | null;
  lineStart: number | null;
  sourceId: number;
}

export function toAnchorSegment(row: SegmentRow): AnchorSegment {
  return {
    id: row.id,
    text: row.text,
    page: row.page,
    ordinal: row.ordinal,
    pageLabel: row.page_label,
    paragraph: row.paragraph,
    lineStart: row.line_start,
    sourceId: row.source_id,
  };
}

/** A citation to check: freshly imported (sourceRef) or stored (sourceId, else its unknown reference). */
export interface CitationInput {
  marker: string;
  claim: string;
  quote: string | null;
  context: string | null;
  sourceRef: SourceRef;
  /** Already resolved (a stored citation); resolution by sourceRef is skipped. */
  sourceId?: number | null;
  locator: ClaimedLocator;
  prefix?: string | undefined;
  suffix?: string | undefined;
  notes?: string[] | undefined;
}

export interface VerifierOptions {
  /** Sources up to this many characters are scanned whole when the narrowed search finds nothing. */
  fullScanChars?: number;
}

export interface AnchorResult {
  /** The best placement of the quote (never a misquote). */
  match: QuoteMatch<AnchorSegment> | null;
  /** When no better placement exists: the passage the quote would be but for a changed number. */
  misquote: QuoteMatch<AnchorSegment> | null;
  hint: QuoteHint | null;
  notes: string[];
  /** Pages claimed through their printed label rather than their number. */
  labelPages: number[];
  /** The citation claims a page the source does not have. */
  claimedMissing: boolean;
}

export interface CitationOutcome {
  marker: string;
  claim: string;
  quote: string | null;
  status: CitationStatus;
  verdict: ClaimVerdict;
  score: number;
  confidence: number;
  source: SourceRefRow | null;
  /** The canonical reference text when no source matched. */
  unknownReference: string | null;
  match: QuoteMatch<AnchorSegment> | null;
  notes: string[];
  sourceOutdated: boolean;
}

export interface AnswerVerification {
  outcomes: CitationOutcome[];
  summary: VerificationResult['summary'];
  riskFlags: VerificationRiskFlag[];
}

/** A stable text for a source reference: the unknown_sources row is keyed on it. */
export function referenceText(ref: SourceRef): string {
  const ordered: Record<string, unknown> = {};
  for (const k of ['sha256', 'file', 'title', 'documentIndex'] as const) if (ref[k] !== undefined) ordered[k] = ref[k];
  return JSON.stringify(ordered);
}

export function describeReference(ref: SourceRef): string {
  if (ref.file) return `"${ref.file}"`;
  if (ref.title) return `"${ref.title}"`;
  if (ref.sha256) return `SHA-256 ${ref.sha256.slice(0, 12)}…`;
  if (ref.documentIndex !== undefined) return `document #${ref.documentIndex} of the request`;
  return 'no source';
}

function stripExtension(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

function pageWord(m: { page?: number; endPage?: number }): string {
  if (m.page === undefined) return '';
  return m.endPage !== undefined && m.endPage !== m.page ? `pp. ${m.page}–${m.endPage}` : `p. ${m.page}`;
}

function describeLocator(l: ClaimedLocator): string {
  const parts: string[] = [];
  if (l.page !== undefined) parts.push(l.pageEnd !== undefined && l.pageEnd !== l.page ? `pp. ${l.page}–${l.pageEnd}` : `p. ${l.page}`);
  else if (l.pageLabel !== undefined) parts.push(`p. ${l.pageLabel}`);
  if (l.paragraph !== undefined) parts.push(`¶ ${l.paragraph}`);
  if (l.line !== undefined) parts.push(l.lineEnd !== undefined && l.lineEnd !== l.line ? `lines ${l.line}–${l.lineEnd}` : `line ${l.line}`);
  if (l.section !== undefined) parts.push(`§ ${l.section}`);
  return parts.join(', ');
}

function whereIs(m: QuoteMatch<AnchorSegment>): string {
  const seg = m.segment;
  if (m.page !== undefined) return pageWord(m);
  if (seg.lineStart !== null) return `line ${lineOf(seg, m.start)}`;
  if (seg.paragraph !== null) return `¶ ${seg.paragraph}`;
  return `passage ${seg.ordinal + 1}`;
}

export function lineOf(seg: { lineStart: number | null; text: string }, offset: number): number {
  let n = seg.lineStart ?? 1;
  for (let i = 0; i < offset && i < seg.text.length; i++) if (seg.text.charCodeAt(i) === 10) n++;
  return n;
}

const TERMINATOR = /[.!?]["'”’)\]]*\s|\n\s*\n/g;

/** The sentences around [start, end) of a text, at most CONTEXT_REACH characters either way. */
export function sentenceContext(text: string, start: number, end: number): string {
  const from = Math.max(0, start - CONTEXT_REACH);
  let a = from;
  TERMINATOR.lastIndex = from;
  for (let m = TERMINATOR.exec(text); m && m.index + m[0].length <= start; m = TERMINATOR.exec(text)) a = m.index + m[0].length;
  const stop = Math.min(text.length, end + CONTEXT_REACH);
  let b = stop;
  TERMINATOR.lastIndex = end;
  const next = TERMINATOR.exec(text);
  if (next && next.index < stop) b = next.index + 1;
  return text.slice(a, b).trim();
}

/** What the quote leaves out: its elisions, the page furniture it runs over. */
function gapNotes(m: QuoteMatch<AnchorSegment>): string[] {
  const gaps = m.gaps ?? [];
  const out: string[] = [];
  const elided = gaps.filter((g) => g.kind === 'elision');
  if (elided.length > 0) {
    const sizes = elided.map((g) => g.text.replace(/\s+/g, ' ').trim().length);
    out.push(`the quote leaves out text in ${elided.length === 1 ? 'one place' : `${elided.length} places`} (${sizes.map((n) => `${n} characters`).join(', ')}); its parts were found in order`);
  }
  const skipped = gaps
    .filter((g) => g.kind === 'page-furniture')
    .map((g) => g.text.replace(/\s+/g, ' ').trim())
    .filter((t) => /[\p{L}\p{N}]/u.test(t));
  if (skipped.length > 0) out.push(`the quote runs over the page break; the running head / foot between its parts was skipped: "${skipped.join('" · "').slice(0, 160)}"`);
  return out;
}

function diffNote(quote: string, found: string): string | null {
  const parts = wordDiff(quote, found).filter((p) => p.op !== 'equal');
  if (parts.length === 0) return null;
  const shown = parts.slice(0, 6).map((p) => `${p.op === 'delete' ? '−' : '+'}"${p.text.length > 60 ? `${p.text.slice(0, 57)}…` : p.text}"`);
  return `differences (quote → source): ${shown.join(' ')}${parts.length > 6 ? ' …' : ''}`;
}

/** A name without a document extension ("free culture.pdf"); a title's "5.4" is no extension. */
function withoutDocExtension(name: string): string {
  return name.replace(/\.(?:pdf|docx?|odt|rtf|txt|text|md|markdown|html?|xhtml)$/i, '');
}

/** Letters and digits only, lowercased: "HR_Policy", "hr policy" and "HR-Policy" are one name. */
function compactName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function nameWords(name: string): string[] {
  return name.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Whether `abbr` is made of a non-empty prefix of each word in turn ("rfullrefman" from
 * "R Full Reference Manual"): the way file names shorten titles.
 */
export function abbreviates(abbr: string, words: readonly string[]): boolean {
  if (words.length < 2 || abbr.length < 4 || abbr.length < words.length) return false;
  let reach = new Set<number>([0]);
  for (const w of words) {
    const next = new Set<number>();
    for (const at of reach) {
      for (let len = 1; len <= w.length && abbr.charCodeAt(at + len - 1) === w.charCodeAt(len - 1); len++) next.add(at + len);
    }
    if (next.size === 0) return false;
    reach = next;
  }
  return reach.has(abbr.length);
}

function contentWords(name: string): string[] {
  return nameWords(name).filter((w) => !STOPWORDS.has(w));
}

/** All of `some` (two or more words) among `all`. */
function wordsWithin(some: readonly string[], all: readonly string[]): boolean {
  if (some.length < 2) return false;
  const set = new Set(all);
  return some.every((w) => set.has(w));
}

const WRAPPING_QUOTES: readonly [string, string][] = [['"', '"'], ['“', '”'], ['„', '“'], ['‘', '’'], ["'", "'"], ['«', '»'], ['»', '«'], ['「', '」']];

/**
 * The quote as it should be searched: citing tools often wrap it in quotation marks or trim it
 * with ellipses ("…lapses on 31 March…"); neither is in the source.
 */
export function searchableQuote(quote: string): string {
  let q = quote.trim();
  for (let changed = true; changed; ) {
    changed = false;
    const stripped = q.replace(/^(?:\.{3}|…)\s*/, '').replace(/\s*(?:\.{3}|…)$/, '');
    if (stripped !== q && stripped.length > 0) {
      q = stripped;
      changed = true;
    }
    for (const [open, close] of WRAPPING_QUOTES) {
      if (q.length > 2 && q.startsWith(open) && q.endsWith(close)) {
        q = q.slice(open.length, q.length - close.length).trim();
        changed = true;
        break;
      }
    }
  }
  return q;
}

/** What the verifier keeps per source: a source's segments never change (new bytes are a new source). */
interface SourceFacts {
  /** Printed page label → pages, exact and lowercased keys; null until asked. */
  labels: Map<string, number[]> | null;
  chars: number | null;
}

export class Verifier {
  private readonly anchoring: AnchoringStore;
  private readonly search: SearchStore;
  private readonly fullScanChars: number;
  private readonly facts = new Map<number, SourceFacts>();

  constructor(anchoring: AnchoringStore, search: SearchStore, options: VerifierOptions = {}) {
    this.anchoring = anchoring;
    this.search = search;
    this.fullScanChars = options.fullScanChars ?? SMALL_SOURCE_CHARS;
  }

  /**
   * The workspace source a reference names: by SHA-256, else by a unique file name or title
   * (case-insensitive, with or without extension; versions of one document count as one, the
   * newest chosen). Null with notes when none or several match.
   */
  resolve(ref: SourceRef): { source: SourceRefRow | null; notes: string[] } {
    const notes: string[] = [];
    if (ref.sha256) {
      const bySha = this.anchoring.sourceBySha(ref.sha256);
      if (bySha) return { source: bySha, notes };
      notes.push(`no workspace source has SHA-256 ${ref.sha256.slice(0, 12)}…`);
    }
    const names = [ref.file, ref.title].filter((n): n is string => !!n && n.trim().length > 0);
    for (const raw of names) {
      const name = raw.trim().toLowerCase();
      const stem = stripExtension(name);
      const rows = this.anchoring.sourcesNamed(name, stem);
      if (rows.length === 0) continue;
      // Full-name matches outrank extension-less ones ("report.pdf" beside "report.docx").
      const exact = rows.filter((r) => r.file_name.toLowerCase() === name || (r.title ?? '').toLowerCase() === name);
      const pool = exact.length > 0 ? exact : rows;
      const lineages = new Map<number, SourceRefRow[]>();
      for (const r of pool) {
        const root = this.rootOf(r);
        lineages.set(root, [...(lineages.get(root) ?? []), r]);
      }
      if (lineages.size === 1) {
        const versions = [...lineages.values()][0] ?? [];
        const chosen = versions.reduce((a, b) => (b.id > a.id ? b : a));
        if (ref.sha256) notes.push(`matched by name instead: ${chosen.file_name}`);
        if (versions.length > 1) notes.push(`${versions.length} versions of ${chosen.file_name} match; checked against the newest`);
        return { source: chosen, notes };
      }
      notes.push(`${describeReference({ file: raw })} matches ${pool.length} different sources (${pool.map((r) => r.file_name).join(', ')}): cite it by SHA-256 to choose one`);
      return { source: null, notes };
    }
    return this.resolveLoosely(names, ref, notes);
  }

  /**
   * No source has the name: the name as people write it. Tiers, loosest last: the same letters and
   * digits ("free culture.pdf", "HR Policy"); an abbreviation ("R Full Reference Manual" for
   * r-fullrefman.pdf); all of two or more words within the title or file name. Within the first
   * tier that matches anything, one document is the answer and several are no answer: the note
   * lists them, nothing is guessed.
   */
  private resolveLoosely(names: string[], ref: SourceRef, notes: string[]): { source: SourceRefRow | null; notes: string[] } {
    if (names.length === 0) return { source: null, notes };
    const all = this.anchoring.allSources();
    const stemOf = (r: SourceRefRow): string => stripExtension(r.file_name);
    // One side's words within the other's, covering at least half of them.
    const within = (some: string[], all: string[]): boolean => wordsWithin(some, all) && some.length * 2 >= all.length;
    const tiers: ((name: string, r: SourceRefRow) => boolean)[] = [
      (name, r) => {
        const c = compactName(withoutDocExtension(name));
        return c.length > 0 && (c === compactName(stemOf(r)) || c === compactName(r.title ?? ''));
      },
      (name, r) => {
        const words = nameWords(withoutDocExtension(name));
        const c = compactName(withoutDocExtension(name));
        return abbreviates(compactName(stemOf(r)), words) || abbreviates(c, nameWords(stemOf(r))) || (r.title !== null && abbreviates(c, nameWords(r.title)));
      },
      (name, r) => {
        const words = contentWords(withoutDocExtension(name));
        const title = r.title !== null ? contentWords(r.title) : [];
        return within(words, title) || within(title, words) || within(words, contentWords(stemOf(r)));
      },
    ];
    for (const matches of tiers) {
      for (const raw of names) {
        const pool = all.filter((r) => matches(raw.trim(), r));
        if (pool.length === 0) continue;
        const lineages = new Map<number, SourceRefRow[]>();
        for (const r of pool) {
          const root = this.rootOf(r);
          lineages.set(root, [...(lineages.get(root) ?? []), r]);
        }
        if (lineages.size > 1) {
          const listed = pool.map((r) => r.file_name).sort().slice(0, 8).join(', ');
          notes.push(`${describeReference({ file: raw })} could be any of ${lineages.size} sources (${listed}${pool.length > 8 ? ', …' : ''}): cite it by its file name or SHA-256 to choose one`);
          return { source: null, notes };
        }
        const versions = [...lineages.values()][0] ?? [];
        const chosen = versions.reduce((a, b) => (b.id > a.id ? b : a));
        if (ref.sha256) notes.push(`matched by name instead: ${chosen.file_name}`);
        notes.push(`${describeReference({ file: raw })} read as ${chosen.file_name}${chosen.title ? ` ("${chosen.title}")` : ''}: the only source whose name matches it`);
        if (versions.length > 1) notes.push(`${versions.length} versions of ${chosen.file_name} match; checked against the newest`);
        return { source: chosen, notes };
      }
    }
    return { source: null, notes };
  }

  private rootOf(row: SourceRefRow): number {
    let cur = row;
    for (let guard = 0; cur.predecessor_id !== null && guard < 1000; guard++) {
      const prev = this.anchoring.source(cur.predecessor_id);
      if (!prev) break;
      cur = prev;
    }
    return cur.id;
  }

  private factsOf(sourceId: number): SourceFacts {
    let f = this.facts.get(sourceId);
    if (!f) {
      f = { labels: null, chars: null };
      this.facts.set(sourceId, f);
    }
    return f;
  }

  /** Pages printed with one of `labels`: the exact label first, else without regard to case. */
  private pagesLabelled(sourceId: number, labels: readonly string[]): number[] {
    const f = this.factsOf(sourceId);
    if (!f.labels) {
      const index = new Map<string, number[]>();
      const put = (key: string, page: number): void => {
        const pages = index.get(key);
        if (!pages) index.set(key, [page]);
        else if (!pages.includes(page)) pages.push(page);
      };
      for (const r of this.anchoring.pageLabels(sourceId)) {
        put(`=${r.page_label}`, r.page);
        put(`~${r.page_label.toLowerCase()}`, r.page);
      }
      f.labels = index;
    }
    const index = f.labels;
    const exact = labels.flatMap((l) => index.get(`=${l}`) ?? []);
    return exact.length > 0 ? exact : labels.flatMap((l) => index.get(`~${l.toLowerCase()}`) ?? []);
  }

  private textLength(sourceId: number): number {
    const f = this.factsOf(sourceId);
    f.chars ??= this.anchoring.textLength(sourceId);
    return f.chars;
  }

  /** The newest version of a source, following predecessor links forward; null when it is the newest. */
  newestVersion(sourceId: number): SourceRefRow | null {
    let newest: SourceRefRow | null = null;
    let cur = sourceId;
    for (let guard = 0; guard < 1000; guard++) {
      const next = this.anchoring.successors(cur);
      const last = next[next.length - 1];
      if (!last) break;
      newest = last;
      cur = last.id;
    }
    return newest;
  }

  /** Segments of the claimed location (for the status) and the segments to search first (with neighbours). */
  private claimed(sourceId: number, l: ClaimedLocator): { hint: QuoteHint | null; search: SegmentRow[]; notes: string[]; labelPages: number[]; missing: boolean } {
    const notes: string[] = [];
    const search = new Map<number, SegmentRow>();
    const segmentIds: number[] = [];
    let pages: number[] = [];
    const labelPages: number[] = [];
    let missing = false;
    const add = (rows: SegmentRow[]): void => rows.forEach((r) => search.set(r.id, r));
    // Pages as printed on them ("iv", "T-3", or a number that is the printed one, counted apart from
    // the front matter): those pages are claimed too, with their neighbours.
    const addLabelled = (labels: string[]): number => {
      const found = this.pagesLabelled(sourceId, labels).filter((page) => !pages.includes(page));
      for (const page of found) {
        if (labelPages.includes(page)) continue;
        labelPages.push(page);
        add(this.anchoring.segmentsByPages(sourceId, page - 1, page + 1));
      }
      return found.length;
    };
    if (l.page !== undefined) {
      const last = l.pageEnd !== undefined && l.pageEnd >= l.page ? Math.min(l.pageEnd, l.page + 200) : l.page;
      for (let p = l.page; p <= last; p++) pages.push(p);
      const rows = this.anchoring.segmentsByPages(sourceId, l.page - 1, last + 1);
      const exists = rows.some((r) => r.page !== null && r.page >= l.page! && r.page <= last);
      if (!exists) pages = [];
      add(rows);
      const labelled = last - l.page < 20 ? addLabelled(pages.length > 0 ? pages.map(String) : [String(l.page)]) : 0;
      if (!exists && labelled === 0) {
        missing = true;
        const src = this.anchoring.source(sourceId);
        notes.push(src?.page_count ? `the source has no page ${l.page} (it has ${src.page_count})` : `the source has no page ${l.page}`);
      }
    } else if (l.pageLabel !== undefined) {
      if (addLabelled([l.pageLabel]) === 0) {
        missing = true;
        notes.push(`the source has no page labelled "${l.pageLabel}"`);
      }
    }
    const ordinalsAround = (rows: SegmentRow[]): number[] => rows.flatMap((r) => [r.ordinal - 1, r.ordinal + 1]).filter((o) => o >= 0);
    if (l.paragraph !== undefined) {
      const rows = this.anchoring.segmentsByParagraphs(sourceId, l.paragraph, l.paragraph);
      segmentIds.push(...rows.map((r) => r.id));
      add(rows);
      add(this.anchoring.segmentsByOrdinals(sourceId, ordinalsAround(rows)));
    }
    if (l.line !== undefined) {
      const rows = this.anchoring.segmentsByLines(sourceId, l.line, l.lineEnd ?? l.line);
      segmentIds.push(...rows.map((r) => r.id));
      add(rows);
      add(this.anchoring.segmentsByOrdinals(sourceId, ordinalsAround(rows)));
    }
    if (l.section !== undefined && segmentIds.length === 0 && pages.length === 0) {
      const rows = this.anchoring.segmentsBySection(sourceId, l.section, 200);
      segmentIds.push(...rows.map((r) => r.id));
      add(rows);
    }
    const hint: QuoteHint = {};
    const claimedPages = [...pages, ...labelPages];
    if (claimedPages.length > 0) hint.pages = claimedPages;
    if (segmentIds.length > 0) hint.segmentIds = segmentIds;
    return { hint: claimsLocation(hint) ? hint : null, search: [...search.values()].sort((a, b) => a.ordinal - b.ordinal), notes, labelPages, missing };
  }

  /**
   * Candidate rows with their neighbours: one each way, or for short blocks (table cells, list
   * items) as many as it takes to hold the quote on either side.
   */
  private withNeighbours(sourceId: number, rows: SegmentRow[], quoteChars: number): SegmentRow[] {
    const out: SegmentRow[] = [];
    const short = rows.filter((r) => r.text.length < quoteChars);
    const ordinals = rows.filter((r) => r.text.length >= quoteChars).flatMap((r) => [r.ordinal - 1, r.ordinal + 1]).filter((o) => o >= 0);
    out.push(...this.anchoring.segmentsByOrdinals(sourceId, ordinals));
    for (const r of short) {
      const around = this.anchoring.segmentsByOrdinalRange(sourceId, Math.max(0, r.ordinal - MAX_BLOCK_NEIGHBOURS), r.ordinal + MAX_BLOCK_NEIGHBOURS);
      const at = around.findIndex((x) => x.id === r.id);
      let chars = 0;
      for (let i = at - 1; i >= 0 && chars < quoteChars; i--) {
        const x = around[i] as SegmentRow;
        out.push(x);
        chars += x.text.length + 1;
      }
      chars = 0;
      for (let i = at + 1; i < around.length && chars < quoteChars; i++) {
        const x = around[i] as SegmentRow;
        out.push(x);
        chars += x.text.length + 1;
      }
    }
    return out;
  }

  /**
   * Finds a quote in one source: claimed location first, then FTS candidates (for Han and kana,
   * substring candidates), then (small sources) everything. A misquote (the quote but for a
   * number) is kept apart: it is never the match.
   */
  anchor(
    sourceId: number,
    quote: string,
    locator: ClaimedLocator,
    context: { prefix?: string | undefined; suffix?: string | undefined } = {},
  ): AnchorResult {
    const claimed = this.claimed(sourceId, locator);
    const notes = [...claimed.notes];
    const options = { hint: claimed.hint, prefix: context.prefix ?? null, suffix: context.suffix ?? null, reportMisquotes: true };
    let best: QuoteMatch<AnchorSegment> | null = null;
    let misquote: QuoteMatch<AnchorSegment> | null = null;
    const consider = (m: QuoteMatch<AnchorSegment> | null): void => {
      if (!m) return;
      if (m.numberMismatch) {
        if (!misquote || m.score > misquote.score + 1e-9) misquote = m;
      } else if (!best || m.score > best.score + 1e-9) best = m;
    };
    const found = (): boolean => best !== null && best.score >= VERIFIED_SCORE - 1e-9;

    const searched = new Set<number>();
    const tryRows = (rows: SegmentRow[]): void => {
      const union = new Map<number, SegmentRow>();
      for (const r of [...claimed.search, ...rows]) union.set(r.id, r);
      if ([...union.keys()].some((id) => !searched.has(id))) {
        consider(findQuote(quote, [...union.values()].sort((a, b) => a.ordinal - b.ordinal).map(toAnchorSegment), options));
        union.forEach((_, id) => searched.add(id));
      }
    };
    if (claimed.search.length > 0) {
      consider(findQuote(quote, claimed.search.map(toAnchorSegment), options));
      claimed.search.forEach((r) => searched.add(r.id));
    }
    if (!found()) {
      // Narrowing queries, cheapest first: all of the rarest terms (an intact quote), then any two of
      // them (a typo spoils one term), then any term (short quotes, heavy damage).
      const terms = candidateTerms(quote, 8).map((t) => `"${t}"`);
      const top = terms.slice(0, 5);
      const pairs: string[] = [];
      for (let i = 0; i < top.length; i++) for (let j = i + 1; j < top.length; j++) pairs.push(`(${top[i]} AND ${top[j]})`);
      const queries: { match: string; kind: 'all' | 'pairs' | 'any' }[] = [];
      if (terms.length >= 2) queries.push({ match: terms.slice(0, 4).join(' AND '), kind: 'all' });
      if (pairs.length >= 3) queries.push({ match: pairs.join(' OR '), kind: 'pairs' });
      if (terms.length > 0) queries.push({ match: terms.join(' OR '), kind: 'any' });
      let pairRows = -1;
      for (const q of queries) {
        if (found()) break;
        // Any two of five rare terms hold the true place unless most terms are damaged.
        if (q.kind === 'any' && pairRows > 0 && terms.length >= 4) break;
        let rows: SegmentRow[] = [];
        try {
          rows = this.search.candidateSegments(q.match, sourceId, FTS_CANDIDATES);
        } catch {
          rows = [];
        }
        if (q.kind === 'pairs') pairRows = rows.length;
        if (rows.length === 0) continue;
        tryRows([...rows, ...this.withNeighbours(sourceId, rows.slice(0, FTS_WITH_NEIGHBOURS), quote.length)]);
      }
    }
    if (!found()) {
      // Han and kana have no FTS terms: passages holding pieces of the quote as typed.
      const needles = cjkNeedles(quote);
      if (needles.length > 0) {
        const rows = this.anchoring.segmentsContaining(sourceId, needles, FTS_CANDIDATES);
        if (rows.length > 0) tryRows([...rows, ...this.withNeighbours(sourceId, rows.slice(0, FTS_WITH_NEIGHBOURS), quote.length)]);
      }
    }
    if (!found()) {
      const chars = this.textLength(sourceId);
      if (chars <= this.fullScanChars) {
        const all = this.anchoring.allSegments(sourceId);
        if (all.some((r) => !searched.has(r.id))) consider(findQuote(quote, all.map(toAnchorSegment), options));
        notes.push('searched the whole source');
      } else {
        notes.push(`searched ${searched.size} candidate passages; the source is too large (${Math.round(chars / 1000)}k characters) for a full scan`);
      }
    }
    // A misquote closer to the quote than any placement found explains it better than that placement.
    const mq = misquote as QuoteMatch<AnchorSegment> | null;
    const b = best as QuoteMatch<AnchorSegment> | null;
    if (mq && (!b || (b.score < VERIFIED_SCORE - 1e-9 && mq.score > b.score))) return { match: null, misquote: mq, hint: claimed.hint, notes, labelPages: claimed.labelPages, claimedMissing: claimed.missing };
    return { match: b, misquote: null, hint: claimed.hint, notes, labelPages: claimed.labelPages, claimedMissing: claimed.missing };
  }

  /** For a citation without a quote: the passage of the source closest to the claim, to judge it against. */
  private closestPassage(sourceId: number, claim: string): { text: string; where: string } | null {
    const terms = candidateTerms(claim, 8);
    if (terms.length === 0) return null;
    let rows: SegmentRow[] = [];
    try {
      rows = this.search.candidateSegments(terms.map((t) => `"${t}"`).join(' OR '), sourceId, 5);
    } catch {
      return null;
    }
    const claimTerms = new Set(keyTerms(claim));
    let best: { text: string; where: string; score: number } | null = null;
    for (const row of rows) {
      for (const s of splitSentences(row.text)) {
        const score = keyTerms(s.text).filter((t) => claimTerms.has(t)).length;
        if (!best || score > best.score) {
          const seg = toAnchorSegment(row);
          best = { text: s.text, where: seg.page !== null ? `p. ${seg.page}` : seg.lineStart !== null ? `line ${lineOf(seg, s.start)}` : `passage ${seg.ordinal + 1}`, score };
        }
      }
    }
    return best && best.score > 0 ? { text: best.text, where: best.where } : null;
  }

  verifyCitation(c: CitationInput): CitationOutcome {
    const notes = [...(c.notes ?? [])];
    let source: SourceRefRow | null = null;
    if (c.sourceId !== undefined && c.sourceId !== null) {
      source = this.anchoring.source(c.sourceId) ?? null;
    } else {
      const resolved = this.resolve(c.sourceRef);
      source = resolved.source;
      notes.push(...resolved.notes);
    }
    const quote = c.quote && c.quote.trim().length > 0 ? c.quote : null;
    const base = { marker: c.marker, claim: c.claim, quote };
    if (!source) {
      notes.push(`no workspace source matches ${describeReference(c.sourceRef)}: ingest the cited document and verify again`);
      const v = claimVerdict({ claim: c.claim, status: 'source_unknown' });
      return { ...base, status: 'source_unknown', verdict: v.verdict, score: 0, confidence: v.confidence, source: null, unknownReference: referenceText(c.sourceRef), match: null, notes, sourceOutdated: false };
    }

    const newer = this.newestVersion(source.id);
    let match: QuoteMatch<AnchorSegment> | null = null;
    let misquote: QuoteMatch<AnchorSegment> | null = null;
    let hint: QuoteHint | null = null;
    let labelPages: number[] = [];
    let claimedMissing = false;
    let context = c.context;
    const contextOf = (m: QuoteMatch<AnchorSegment>): string => {
      const startCtx = sentenceContext(m.segment.text, m.start, m.end);
      const endCtx = m.endSegment ? sentenceContext(m.endSegment.text, m.endStart ?? 0, m.endOffset ?? 0) : '';
      return `${startCtx}\n${endCtx}`.trim();
    };
    if (quote) {
      const anchored = this.anchor(source.id, searchableQuote(quote), c.locator, { prefix: c.prefix, suffix: c.suffix });
      match = anchored.match;
      misquote = anchored.misquote;
      hint = anchored.hint;
      labelPages = anchored.labelPages;
      claimedMissing = anchored.claimedMissing;
      notes.push(...anchored.notes.filter((n) => n.startsWith('the source has no page') || !match || match.score < VERIFIED_SCORE));
      if (match) context = contextOf(match);
      else if (misquote) context = contextOf(misquote);
    } else {
      notes.push('the citation gives no quote (paraphrase or inference): support is judged from the claim');
      if (!context && c.claim.trim()) {
        const passage = this.closestPassage(source.id, c.claim);
        if (passage) {
          context = passage.text;
          notes.push(`compared with the closest passage of ${source.file_name} (${passage.where})`);
        }
      }
    }

    let status = citationStatus({ quote, sourceKnown: true, match, claimed: hint });
    // A claimed page the source does not have is a wrong location, not an absent one.
    if (status === 'verified' && claimedMissing) status = 'verified_elsewhere';
    // A text segment spans up to 40 lines: a line claim is checked against the match's own lines.
    if (status === 'verified' && match && c.locator.line !== undefined && match.segment.lineStart !== null) {
      const first = lineOf(match.segment, match.start);
      const endSeg = match.endSegment ?? match.segment;
      const last = lineOf(endSeg, match.endSegment ? (match.endOffset ?? 0) : match.end);
      const claimedEnd = c.locator.lineEnd ?? c.locator.line;
      if (last < c.locator.line - 1 || first > claimedEnd + 1) status = 'verified_elsewhere';
    }
    const v = claimVerdict({ claim: c.claim, status, score: match?.score ?? null, matchText: match?.text ?? null, quote, context, misquotedText: misquote?.text ?? null });
    const claimedText = describeLocator(c.locator);
    if (match) {
      if (status === 'verified_elsewhere') notes.push(`found on ${whereIs(match)}${claimedText ? `, not at the claimed ${claimedText}` : ''}`);
      if (status === 'verified' && match.page !== undefined && labelPages.includes(match.page) && c.locator.pageEnd === undefined) {
        const label = match.segment.pageLabel ?? c.locator.pageLabel ?? String(c.locator.page);
        notes.push(`found on the page printed "${label}" (p. ${match.page} of the file)`);
      }
      if (match.endSegment) notes.push(`the quote runs on to ${match.endPage !== undefined ? `p. ${match.endPage}` : 'the next passage'} (to offset ${match.endOffset})`);
      notes.push(...gapNotes(match));
      if (match.method !== 'exact' && quote) {
        const d = match.gaps ? null : diffNote(searchableQuote(quote), match.text);
        if (match.method === 'fuzzy' && d) notes.push(d);
        else if (match.method === 'normalised' && !match.gaps) notes.push('matched after normalisation (case, spacing, quotes, dashes or hyphenation differ)');
      }
    }
    if (status === 'not_found' && misquote && quote) {
      const d = diffNote(searchableQuote(quote), misquote.text);
      notes.push(
        `the quote is not in ${source.file_name} as written: on ${whereIs(misquote)} the source has the same words with other numbers (${(misquote.numberMismatch?.source ?? []).join(', ') || 'none'} where the quote has ${(misquote.numberMismatch?.quote ?? []).join(', ')})${d ? `; ${d}` : ''}`,
      );
    } else if (status === 'not_found') notes.push(`the quote is not in ${source.file_name}${match ? ` (best match scores ${match.score.toFixed(2)}, below 0.75)` : ''}`);
    if (status === 'partial' && match) notes.push(`only a partial match (score ${match.score.toFixed(2)}) on ${whereIs(match)}`);
    for (const r of v.reasons) if (!notes.includes(r)) notes.push(r);

    if (newer) {
      let moved = '';
      if (quote) {
        const again = this.anchor(newer.id, searchableQuote(quote), {}, { prefix: match?.prefix ?? c.prefix, suffix: match?.suffix ?? c.suffix }).match;
        moved = again && again.score >= VERIFIED_SCORE - 1e-9 ? `; there the quote is on ${whereIs(again)}` : '; the quote is not found in it';
      }
      notes.push(`a newer version of this source exists (${newer.file_name}, source #${newer.id}, added ${newer.added_at.slice(0, 10)})${moved}`);
    }
    return { ...base, status, verdict: v.verdict, score: match ? Math.max(0, Math.min(1, match.score)) : 0, confidence: v.confidence, source, unknownReference: null, match, notes, sourceOutdated: newer !== null };
  }

  /** Every citation of an answer, plus the ledger summary and risk flags. */
  verifyAll(citations: readonly CitationInput[], extraFlags: readonly VerificationRiskFlag[] = []): AnswerVerification {
    const outcomes = citations.map((c) => this.verifyCitation(c));
    const ledger = summariseLedger(
      outcomes.map((o) => ({ marker: o.marker, claim: o.claim, status: o.status, verdict: o.verdict, confidence: o.confidence, sourceOutdated: o.sourceOutdated })),
    );
    return { outcomes, summary: ledger.summary, riskFlags: [...ledger.riskFlags, ...extraFlags] };
  }
}

/** The imported citations as verifier input. */
export function citationInputs(answer: ImportedAnswer): CitationInput[] {
  return answer.citations.map((c) => ({
    marker: c.marker,
    claim: c.claim,
    quote: c.quote,
    context: c.context,
    sourceRef: c.sourceRef,
    locator: c.locator,
    prefix: c.prefix,
    suffix: c.suffix,
    notes: c.notes,
  }));
}

/** What a citation's result row stores (DESIGN.md §5: quote, 32 chars of prefix/suffix, position, page label). */
export function resultRow(citationId: number, o: CitationOutcome): NewResult {
  const m = o.match;
  return {
    citationId,
    status: o.status,
    verdict: o.verdict,
    score: o.score,
    confidence: Math.max(0, Math.min(1, o.confidence)),
    sourceId: o.source?.id ?? null,
    segmentId: m ? m.segment.id : null,
    startOffset: m ? m.start : null,
    endSegmentId: m?.endSegment ? m.endSegment.id : null,
    endOffset: m ? (m.endSegment ? (m.endOffset ?? m.end) : m.end) : null,
    page: m?.page ?? null,
    pageLabel: m ? m.segment.pageLabel : null,
    matchMethod: m?.method ?? null,
    matchedText: m?.text ?? null,
    quote: o.quote,
    prefix: m?.prefix ?? null,
    suffix: m?.suffix ?? null,
    notes: o.notes,
  };
}

/** The verification@1 `match` of a placed quote. */
export function verificationMatch(
  source: { sha256: string; file_name: string },
  seg: { text: string; page: number | null; paragraph: number | null; lineStart: number | null },
  r: { start: number; end: number; spans: boolean; method: string; text: string },
): VerificationMatch {
  const match: VerificationMatch = {
    sha256: source.sha256,
    file: source.file_name,
    start: r.start,
    // A match that runs on to the next segment ends, in this one, where its text ends.
    end: r.spans ? Math.max(r.start, seg.text.trimEnd().length) : r.end,
    method: r.method === 'exact' || r.method === 'normalised' ? r.method : 'fuzzy',
    text: r.text,
  };
  if (seg.page !== null) match.page = seg.page;
  if (seg.paragraph !== null) match.paragraph = seg.paragraph;
  if (seg.lineStart !== null) match.line = lineOf(seg, r.start);
  return match;
}

export function outcomeToResultCitation(o: CitationOutcome): VerificationCitation {
  const m = o.match;
  return {
    marker: o.marker,
    status: o.status,
    verdict: o.verdict,
    score: o.score,
    match: m && o.source ? verificationMatch(o.source, m.segment, { start: m.start, end: m.end, spans: !!m.endSegment, method: m.method, text: m.text }) : null,
    notes: o.notes,
  };
}

export function verificationResult(question: string | null, v: AnswerVerification, verifiedAt: string): VerificationResult {
  return {
    format: VERIFICATION_FORMAT,
    verifiedAt,
    answer: { question },
    citations: v.outcomes.map(outcomeToResultCitation),
    summary: v.summary,
    riskFlags: v.riskFlags,
  };
}
