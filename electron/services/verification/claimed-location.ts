/**
 * A citation's claimed location in one source: the segments it names (pages, printed page labels,
 * paragraphs, lines, a section), which decide the status, and those to search first.
 */
import type { QuoteHint } from '../../../shared/anchoring/index.ts';
import type { ClaimedLocator } from '../../../shared/imports/model.ts';
import { claimsLocation } from '../../../shared/verification/index.ts';
import type { AnchoringStore, SegmentSpan } from '../store/anchoring-store.ts';
import type { SegmentRow } from '../store/sources-store.ts';
import { lineRange, segmentAtOffset } from './document-offsets.ts';

export interface ClaimedLocation {
  /**
   * The claimed segments and pages, and where in a segment the quote is said to be (a line, a
   * character offset); null when the locator names nothing that exists.
   */
  hint: QuoteHint | null;
  /** The claimed segments with their neighbours, in document order. */
  search: SegmentRow[];
  /** The segments around a claimed character offset (no claimed location: worth searching first only without better context). */
  nearby: SegmentRow[];
  notes: string[];
  /** Pages claimed through their printed label rather than their number. */
  labelPages: number[];
  /** The citation claims a page the source does not have. */
  missing: boolean;
}

export class ClaimedLocations {
  private readonly anchoring: AnchoringStore;
  /** Per source: printed page label → pages, exact (`=`) and lowercased (`~`) keys. A source's pages never change. */
  private readonly labels = new Map<number, Map<string, number[]>>();
  /** Per source: its segments' lengths and lines, to place character offsets. */
  private readonly spans = new Map<number, SegmentSpan[]>();

  constructor(anchoring: AnchoringStore) {
    this.anchoring = anchoring;
  }

  /** Pages printed with one of `labels`: the exact label first, else without regard to case. */
  private pagesLabelled(sourceId: number, labels: readonly string[]): number[] {
    let index = this.labels.get(sourceId);
    if (!index) {
      const built = new Map<string, number[]>();
      const put = (key: string, page: number): void => {
        const pages = built.get(key);
        if (!pages) built.set(key, [page]);
        else if (!pages.includes(page)) pages.push(page);
      };
      for (const r of this.anchoring.pageLabels(sourceId)) {
        put(`=${r.page_label}`, r.page);
        put(`~${r.page_label.toLowerCase()}`, r.page);
      }
      this.labels.set(sourceId, built);
      index = built;
    }
    const byLabel = index;
    const exact = labels.flatMap((l) => byLabel.get(`=${l}`) ?? []);
    return exact.length > 0 ? exact : labels.flatMap((l) => byLabel.get(`~${l.toLowerCase()}`) ?? []);
  }

  /** Segments of the claimed location (for the status) and the segments to search first (with neighbours). */
  claimed(sourceId: number, l: ClaimedLocator): ClaimedLocation {
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
    let near: QuoteHint['near'];
    let nearby: SegmentRow[] = [];
    if (l.line !== undefined) {
      const rows = this.anchoring.segmentsByLines(sourceId, l.line, l.lineEnd ?? l.line);
      segmentIds.push(...rows.map((r) => r.id));
      add(rows);
      add(this.anchoring.segmentsByOrdinals(sourceId, ordinalsAround(rows)));
      // A segment holds up to 40 lines: the claimed ones choose between occurrences inside it.
      const first = rows[0];
      if (first && first.line_start !== null) near = { segmentId: first.id, ...lineRange(first.text, first.line_start, l.line, l.lineEnd ?? l.line) };
    }
    if (l.charStart !== undefined && !near) {
      let spans = this.spans.get(sourceId);
      if (!spans) {
        spans = this.anchoring.segmentSpans(sourceId);
        this.spans.set(sourceId, spans);
      }
      const at = segmentAtOffset(spans, l.charStart, l.charEnd ?? l.charStart);
      if (at) {
        near = { segmentId: at.segmentId, start: at.start, end: at.end };
        nearby = this.anchoring.segmentsByOrdinalRange(sourceId, Math.max(0, at.ordinal - 1), at.ordinal + 1);
      }
    }
    // PowerPoint and Excel: the claimed slide, or sheet and cell, are those blocks (a cell with its row around it).
    if (l.slide !== undefined) {
      const rows = this.anchoring.segmentsBySlide(sourceId, l.slide);
      if (rows.length === 0) {
        missing = true;
        notes.push(`the source has no slide ${l.slide} with text`);
      }
      segmentIds.push(...rows.map((r) => r.id));
      add(rows);
    }
    if (l.sheet !== undefined) {
      const address = l.cell !== undefined ? l.cell.toUpperCase().replace(/\$/g, '') : null;
      const rows = this.anchoring.segmentsBySheet(sourceId, l.sheet, address);
      if (rows.length === 0) {
        missing = true;
        notes.push(address ? `the source has no filled cell ${address} on a sheet "${l.sheet}"` : `the source has no sheet "${l.sheet}" with filled cells`);
      }
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
    if (near) hint.near = near;
    return { hint: claimsLocation(hint) || near ? hint : null, search: [...search.values()].sort((a, b) => a.ordinal - b.ordinal), nearby, notes, labelPages, missing };
  }
}
