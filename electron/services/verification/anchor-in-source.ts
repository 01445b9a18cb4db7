/**
 * Finding a quote in one source without reading all of it: the claimed location first, then
 * passages narrowed by full-text search (substring needles for Han and kana), then, for a small
 * source, everything. A misquote (the quote but for a number) is kept apart from the match.
 */
import { candidateTerms, cjkNeedles, contextAgreement, findQuote, letterSpacedSpelling, ligatureSpellings, type QuoteHint, type QuoteMatch } from '../../../shared/anchoring/index.ts';
import type { ClaimedLocator } from '../../../shared/imports/model.ts';
import { VERIFIED_SCORE } from '../../../shared/verification/index.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SegmentRow } from '../store/sources-store.ts';
import { toAnchorSegment, type AnchorSegment } from './anchor-segment.ts';
import { ClaimedLocations } from './claimed-location.ts';
import { isFigure, numberCellMatch } from './number-cells.ts';

/** Sources up to this many characters are scanned whole when the narrowed search finds nothing. */
export const SMALL_SOURCE_CHARS = 400_000;
/** FTS-ranked passages of the cited source handed to the anchoring engine. */
const FTS_CANDIDATES = 24;
/** The best FTS candidates also bring their neighbours: a quote may run across a page break. */
const FTS_WITH_NEIGHBOURS = 4;
/** Cells read when a figure is compared as a number. */
const FIGURE_CELLS = 200_000;
/** Short blocks (table cells, list items) bring up to this many neighbours each way, to cover the quote. */
const MAX_BLOCK_NEIGHBOURS = 12;

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

/** A term of an FTS5 query, with the ligature spellings a PDF's text may hold. */
function ftsTerm(term: string): string {
  const spellings = ligatureSpellings(term).map((t) => `"${t}"`);
  return spellings.length === 1 ? (spellings[0] as string) : `(${spellings.join(' OR ')})`;
}

/** Any two of the terms, as one FTS5 query. */
function pairsOf(terms: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < terms.length; i++) for (let j = i + 1; j < terms.length; j++) pairs.push(`(${terms[i]} AND ${terms[j]})`);
  return pairs;
}

export class SourceAnchorer {
  private readonly anchoring: AnchoringStore;
  private readonly search: SearchStore;
  private readonly fullScanChars: number;
  private readonly locations: ClaimedLocations;
  /** Characters of text per source (a source's text never changes: new bytes are a new source). */
  private readonly chars = new Map<number, number>();

  constructor(anchoring: AnchoringStore, search: SearchStore, fullScanChars: number = SMALL_SOURCE_CHARS) {
    this.anchoring = anchoring;
    this.search = search;
    this.fullScanChars = fullScanChars;
    this.locations = new ClaimedLocations(anchoring);
  }

  private textLength(sourceId: number): number {
    let n = this.chars.get(sourceId);
    if (n === undefined) {
      n = this.anchoring.textLength(sourceId);
      this.chars.set(sourceId, n);
    }
    return n;
  }

  /** Segments per source (as textLength, a source's text never changes). */
  private readonly segmentCounts = new Map<number, number>();

  private segmentCount(sourceId: number): number {
    let n = this.segmentCounts.get(sourceId);
    if (n === undefined) {
      n = this.anchoring.segmentCount(sourceId);
      this.segmentCounts.set(sourceId, n);
    }
    return n;
  }

  /** The best FTS candidates of a source for a query; none when the query is not valid FTS5. */
  private ftsRows(match: string, sourceId: number): SegmentRow[] {
    try {
      return this.search.candidateSegments(match, sourceId, FTS_CANDIDATES);
    } catch {
      return [];
    }
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
    const claimed = this.locations.claimed(sourceId, locator);
    // Text around the quote (a TextQuoteSelector's, an Anthropic document's) places it better than
    // a character offset into someone else's copy of the text.
    const first = context.prefix || context.suffix ? claimed.search : [...claimed.search, ...claimed.nearby].sort((a, b) => a.ordinal - b.ordinal);
    const notes = [...claimed.notes];
    const options = { hint: claimed.hint, prefix: context.prefix ?? null, suffix: context.suffix ?? null, reportMisquotes: true };
    let best: QuoteMatch<AnchorSegment> | null = null;
    let misquote: QuoteMatch<AnchorSegment> | null = null;
    // Between equally good placements from different searches, the one whose surroundings agree
    // with the citation's context (prefix / suffix) wins.
    const agreement = (m: QuoteMatch<AnchorSegment>): number => contextAgreement(m, context);
    const better = (m: QuoteMatch<AnchorSegment>, than: QuoteMatch<AnchorSegment> | null): boolean =>
      !than || m.score > than.score + 1e-9 || (Math.abs(m.score - than.score) <= 1e-9 && agreement(m) > agreement(than) + 1e-9);
    const consider = (m: QuoteMatch<AnchorSegment> | null): void => {
      if (!m) return;
      if (m.numberMismatch) {
        if (better(m, misquote)) misquote = m;
      } else if (better(m, best)) best = m;
    };
    const found = (): boolean => best !== null && best.score >= VERIFIED_SCORE - 1e-9;

    const searched = new Set<number>();
    // Once every segment has been searched (a note of one passage, found at its claimed line), a
    // narrowing query can bring nothing new: it is not asked. The outcome is the same.
    const total = this.segmentCount(sourceId);
    const ftsRows = (match: string): SegmentRow[] => (searched.size >= total ? [] : this.ftsRows(match, sourceId));
    const tryRows = (rows: SegmentRow[]): void => {
      const union = new Map<number, SegmentRow>();
      for (const r of [...first, ...rows]) union.set(r.id, r);
      if ([...union.keys()].some((id) => !searched.has(id))) {
        consider(findQuote(quote, [...union.values()].sort((a, b) => a.ordinal - b.ordinal).map(toAnchorSegment), options));
        union.forEach((_, id) => searched.add(id));
      }
    };
    if (first.length > 0) {
      consider(findQuote(quote, first.map(toAnchorSegment), options));
      first.forEach((r) => searched.add(r.id));
    }
    const quoteTerms = candidateTerms(quote, 8);
    if (!found() && (context.prefix || context.suffix) && (quoteTerms.length < 3 || quote.length < 60)) {
      // A short quote says little about where it is; the text the citation puts around it says more.
      // All of its rarest terms first (the quote and its context sit together), then any two, until
      // a placement's surroundings agree with the context. The outermost words of the context are
      // often cut short ("h containing … increas-"): left out.
      const around = `${(context.prefix ?? '').replace(/^\S*\s*/u, '')} ${quote} ${(context.suffix ?? '').replace(/\s*\S*$/u, '')}`;
      const terms = candidateTerms(around, 8).map(ftsTerm);
      const queries = terms.length >= 3 ? [terms.slice(0, 4).join(' AND '), pairsOf(terms.slice(0, 5)).join(' OR ')] : [terms.join(' OR ')];
      for (const match of queries) {
        const rows = match ? ftsRows(match) : [];
        if (rows.length > 0) tryRows(rows);
        const b = best as QuoteMatch<AnchorSegment> | null;
        if (b && found() && agreement(b) >= 0.9) break;
      }
    }
    if (!found()) {
      // Narrowing queries, cheapest first: all of the rarest terms (an intact quote), then any two of
      // them (a typo spoils one term), then any term (short quotes, heavy damage).
      const terms = quoteTerms.map(ftsTerm);
      const pairs = pairsOf(terms.slice(0, 5));
      const queries: { match: string; kind: 'all' | 'pairs' | 'any' }[] = [];
      if (terms.length >= 2) queries.push({ match: terms.slice(0, 4).join(' AND '), kind: 'all' });
      if (pairs.length >= 3) queries.push({ match: pairs.join(' OR '), kind: 'pairs' });
      if (terms.length > 0) queries.push({ match: terms.join(' OR '), kind: 'any' });
      let pairRows = -1;
      for (const q of queries) {
        if (found()) break;
        // Any two of five rare terms hold the true place unless most terms are damaged.
        if (q.kind === 'any' && pairRows > 0 && terms.length >= 4) break;
        const rows = ftsRows(q.match);
        if (q.kind === 'pairs') pairRows = rows.length;
        if (rows.length === 0) continue;
        tryRows([...rows, ...this.withNeighbours(sourceId, rows.slice(0, FTS_WITH_NEIGHBOURS), quote.length)]);
      }
    }
    if (!found()) {
      // Letter-spaced headings ("F I N A N C I A L"): FTS holds their letters as one-letter tokens.
      // Asked last, as phrases of common one-letter tokens cost more than words.
      const spaced = quoteTerms.slice(0, 2).flatMap((t) => letterSpacedSpelling(t) ?? []).map((t) => `"${t}"`);
      const rows = spaced.length > 0 ? ftsRows(spaced.join(' OR ')) : [];
      if (rows.length > 0) tryRows([...rows, ...this.withNeighbours(sourceId, rows.slice(0, FTS_WITH_NEIGHBOURS), quote.length)]);
    }
    if (!found()) {
      // Han and kana have no FTS terms: passages holding pieces of the quote as typed.
      const needles = cjkNeedles(quote);
      if (needles.length > 0) {
        const rows = this.anchoring.segmentsContaining(sourceId, needles, FTS_CANDIDATES);
        if (rows.length > 0) tryRows([...rows, ...this.withNeighbours(sourceId, rows.slice(0, FTS_WITH_NEIGHBOURS), quote.length)]);
      }
    }
    if (!found() && isFigure(quote)) {
      // A figure alone ("1200") is a cell shown "1,200": compared as numbers, before a fuzzy scan
      // could take a near figure for it.
      consider(numberCellMatch(quote, this.anchoring.figureCells(sourceId, FIGURE_CELLS), claimed.hint?.segmentIds ?? []));
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
}
