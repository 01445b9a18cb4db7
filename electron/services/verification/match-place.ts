/** A stored match as the viewers locate it: page, block or line, with offsets from there. */
import type { MatchPlace } from '../../../shared/contract/answer-schemas.ts';
import { Locator } from '../../../shared/contract/schemas.ts';
import type { SegmentRow } from '../store/sources-store.ts';

type Located = Pick<SegmentRow, 'page' | 'paragraph' | 'line_start' | 'text'> & Partial<Pick<SegmentRow, 'locator'>>;

/** The table cell a segment sits in, and its slide or sheet (PowerPoint, Excel), from its stored locator. */
function cellOf(seg: Located): Pick<MatchPlace, 'cell' | 'slide' | 'notes' | 'sheet' | 'address'> {
  if (!seg.locator) return {};
  try {
    const parsed = OfficePlace.safeParse(JSON.parse(seg.locator));
    if (!parsed.success) return {};
    const out: Pick<MatchPlace, 'cell' | 'slide' | 'notes' | 'sheet' | 'address'> = {};
    for (const [k, v] of Object.entries(parsed.data)) if (v !== undefined) Object.assign(out, { [k]: v });
    return out;
  } catch {
    return {};
  }
}

const OfficePlace = Locator.pick({ cell: true, slide: true, notes: true, sheet: true, address: true });

/** The line of `offset` in a text segment and the offset's column in that line. */
function lineColumn(seg: Located & { line_start: number }, offset: number): { line: number; column: number } {
  const lines = seg.text.slice(0, offset).split('\n');
  return { line: seg.line_start + lines.length - 1, column: (lines[lines.length - 1] ?? '').length };
}

/** Where the parts of a match that runs on end (in its first segment) and start (in its last). */
export interface MatchParts {
  firstEnd: number;
  lastStart: number;
}

/**
 * Where a match from `start` in `first` to `end` in `last` (or in `first`) lies; `parts`, for a
 * match that runs on, keeps text skipped between its parts out of a page or block highlight. Text
 * offsets are turned into line and column, since a text viewer shows lines, not the segments that
 * group them (a line place counts columns of lines, not segment offsets, so it carries no parts).
 */
export function matchPlace(first: Located, start: number, last: Located | undefined, end: number, parts?: MatchParts): MatchPlace | null {
  const final = last ?? first;
  const split = last && parts ? parts : {};
  if (first.page !== null && final.page !== null) return { unit: 'page', at: first.page, endAt: final.page, start, end, ...split };
  if (first.paragraph !== null && final.paragraph !== null) {
    // A quote inside one table cell is cited by that cell; one on a slide or sheet, by that slide or sheet.
    const where = cellOf(first);
    if (first.paragraph !== final.paragraph) delete where.cell;
    if (first.paragraph !== final.paragraph) delete where.address;
    return { unit: 'block', at: first.paragraph, endAt: final.paragraph, start, end, ...split, ...where };
  }
  if (first.line_start !== null && final.line_start !== null) {
    const a = lineColumn({ ...first, line_start: first.line_start }, start);
    const b = lineColumn({ ...final, line_start: final.line_start }, end);
    return { unit: 'line', at: a.line, endAt: b.line, start: a.column, end: b.column };
  }
  return null;
}
