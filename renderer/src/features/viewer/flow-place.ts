// Pure logic of the DOCX, HTML and text viewers: where a target lands, whether what is shown is the
// stored text, finding a phrase, reading a "go to" entry. No DOM here (test/unit/viewer tests it).
import type { StoredSegment } from '../../../../shared/contract/content-schemas.ts';
import type { FlowTarget } from './viewer-store.ts';
import { phrasePattern } from '../../../../shared/search/find-in-pages.ts';

/** Blocks (DOCX, HTML) are numbered from 0 like locator.paragraph; lines from 1. */
export type FlowUnit = 'block' | 'line';

/** The characters [from, to) of one block or line to highlight. */
export interface UnitRange {
  unit: number;
  from: number;
  to: number;
}

/** Where a target lands: the blocks or lines to show, and the exact ranges, or why there are none. */
export type Placement = { ok: true; units: number[]; ranges: UnitRange[] } | { ok: false; units: number[]; reason: string };

/** One piece of a block's text as the viewer shows it: `s` at offset `at` of the block's text. */
export interface Piece {
  at: number;
  s: string;
}

/** Longest run of blocks or lines a target may mark (a "go to lines 1–100000" stays cheap). */
const MAX_TARGET_UNITS = 2000;

export function unitLabel(unit: FlowUnit, n: number, last?: number): string {
  if (unit === 'block') return last !== undefined && last !== n ? `¶ ${n}–${last}` : `¶ ${n}`;
  return last !== undefined && last !== n ? `lines ${n}–${last}` : `line ${n}`;
}

function span(first: number, last: number): number[] {
  const out: number[] = [];
  for (let u = first; u <= last && out.length < MAX_TARGET_UNITS; u++) out.push(u);
  return out;
}

/**
 * The pieces of a block, as shown, are its stored text when each piece is the stored text at its
 * offset, none overlap, and what lies between them is only the spaces and newlines that stand for
 * line breaks and nested blocks.
 */
export function piecesMatch(pieces: readonly Piece[], text: string): boolean {
  const sorted = [...pieces].sort((a, b) => a.at - b.at);
  let covered = 0;
  for (const p of sorted) {
    if (p.at < covered || !text.startsWith(p.s, p.at)) return false;
    if (!/^[ \n]*$/.test(text.slice(covered, p.at))) return false;
    covered = p.at + p.s.length;
  }
  return /^[ \n]*$/.test(text.slice(covered)) && (text === '' || sorted.length > 0);
}

/** Paragraph indices of the stored segments whose block, as shown, is not their stored text. */
export function differingBlocks(segments: readonly StoredSegment[], shownMatches: (paragraph: number, text: string) => boolean): Set<number> {
  const out = new Set<number>();
  for (const seg of segments) {
    if (seg.paragraph !== null && !shownMatches(seg.paragraph, seg.text)) out.add(seg.paragraph);
  }
  return out;
}

/** Lines of the stored segments whose lines, as shown, are not their stored text. */
export function differingLines(lines: readonly string[], segments: readonly StoredSegment[]): Set<number> {
  const out = new Set<number>();
  for (const seg of segments) {
    if (seg.line === null) continue;
    const last = seg.lineEnd ?? seg.line;
    if (last > lines.length || lines.slice(seg.line - 1, last).join('\n') !== seg.text) {
      for (let l = seg.line; l <= last; l++) out.add(l);
    }
  }
  return out;
}

/** A target in DOCX or HTML blocks: `stored` maps a paragraph index to its stored text. */
export function placeInBlocks(target: FlowTarget, stored: ReadonlyMap<number, string>, differs: ReadonlySet<number>): Placement {
  const first = target.at;
  const last = target.endAt ?? first;
  const firstText = stored.get(first);
  const lastText = stored.get(last);
  if (firstText === undefined) return { ok: false, units: [], reason: `this document has no ¶ ${first}` };
  if (lastText === undefined || last < first) return { ok: false, units: [first], reason: `this document has no ¶ ${last}` };
  const units = span(first, last).filter((u) => stored.has(u));
  if (!target.range) return { ok: true, units, ranges: [] };
  const { start, end } = target.range;
  if (start > firstText.length || end > lastText.length || (first === last && start > end)) {
    return { ok: false, units, reason: `the range ${start}–${end} lies outside the stored text of ${unitLabel('block', first, last)}` };
  }
  const bad = units.find((u) => differs.has(u));
  if (bad !== undefined) return { ok: false, units, reason: `¶ ${bad} as shown differs from its stored text` };
  const ranges: UnitRange[] = [];
  for (const unit of units) {
    const from = unit === first ? start : 0;
    const to = unit === last ? end : (stored.get(unit) ?? '').length;
    if (from < to) ranges.push({ unit, from, to });
  }
  return { ok: true, units, ranges };
}

/** An offset counted from the start of `line` (running on through later lines) as a line and column. */
function lineColumn(lines: readonly string[], line: number, offset: number): { line: number; col: number } | null {
  let l = line;
  let o = offset;
  while (l >= 1 && l <= lines.length) {
    const len = (lines[l - 1] ?? '').length;
    if (o <= len) return { line: l, col: o };
    o -= len + 1;
    l++;
  }
  return null;
}

/** A target in text lines; offsets run on through the lines after `at`, as a segment's do. */
export function placeInLines(target: FlowTarget, lines: readonly string[], segments: readonly StoredSegment[], differs: ReadonlySet<number>): Placement {
  const first = target.at;
  const last = target.endAt ?? first;
  if (first < 1 || first > lines.length) return { ok: false, units: [], reason: `this file has no line ${first} (it has ${lines.length})` };
  if (last < first || last > lines.length) return { ok: false, units: [first], reason: `this file has no line ${last} (it has ${lines.length})` };
  if (!target.range) return { ok: true, units: span(first, last), ranges: [] };
  const { start, end } = target.range;
  // A locator's offsets stay inside its segment.
  const startsAt = (line: number) => segments.find((s) => s.line === line);
  const a = lineColumn(lines, first, start);
  const b = lineColumn(lines, last, end);
  const firstSeg = startsAt(first);
  const lastSeg = startsAt(last);
  if (!a || !b || (firstSeg && start > firstSeg.text.length) || (lastSeg && end > lastSeg.text.length) || b.line < a.line || (b.line === a.line && b.col < a.col)) {
    return { ok: false, units: [first], reason: `the range ${start}–${end} lies outside the stored text from ${unitLabel('line', first, last)}` };
  }
  const units = span(a.line, b.line);
  const bad = units.find((u) => differs.has(u));
  if (bad !== undefined) return { ok: false, units, reason: `line ${bad} as shown differs from its stored text` };
  const ranges: UnitRange[] = [];
  for (const unit of units) {
    const from = unit === a.line ? a.col : 0;
    const to = unit === b.line ? b.col : (lines[unit - 1] ?? '').length;
    if (from < to) ranges.push({ unit, from, to });
  }
  return { ok: true, units, ranges };
}

export interface FindUnit {
  unit: number;
  text: string;
}

/**
 * Every occurrence of a phrase, ignoring case; a space in the phrase matches any white space,
 * including the break between two blocks or lines, so a quote that runs on is found whole.
 */
export function findAll(units: readonly FindUnit[], phrase: string, limit = 1000): FlowTarget[] {
  const re = phrasePattern(phrase);
  if (!re || units.length === 0) return [];
  const starts: number[] = [];
  let offset = 0;
  for (const u of units) {
    starts.push(offset);
    offset += u.text.length + 1;
  }
  const joined = units.map((u) => u.text).join('\n');
  const unitAt = (pos: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const out: FlowTarget[] = [];
  for (const m of joined.matchAll(re)) {
    const a = m.index;
    const b = a + m[0].length;
    const ua = unitAt(a);
    const ub = unitAt(b - 1);
    const first = units[ua];
    const last = units[ub];
    if (!first || !last) continue;
    const target: FlowTarget = { at: first.unit, range: { start: a - (starts[ua] ?? 0), end: b - (starts[ub] ?? 0) } };
    if (ub !== ua) target.endAt = last.unit;
    out.push(target);
    if (out.length >= limit) break;
  }
  return out;
}

/** "12", "¶ 12", "line 12", "lines 10–12", "10-12": the first and last unit, or null. */
export function parseGoTo(entry: string): { from: number; to: number } | null {
  const m = /^\s*(?:¶|lines?|l\.|block)?\s*(\d{1,9})\s*(?:(?:[-–—]|to)\s*(\d{1,9}))?\s*$/i.exec(entry);
  if (!m?.[1]) return null;
  const from = Number(m[1]);
  const to = m[2] ? Number(m[2]) : from;
  return to >= from ? { from, to } : null;
}
