/**
 * Character offsets of a document as a citing tool saw it (an Anthropic char_location, a W3C
 * TextPositionSelector) placed among the stored segments. The tool's text is taken to be the
 * segments joined by line breaks, with an empty line for each line the segments skip (a text
 * file's blank lines). A tool's copy may differ in spacing, so the place found only chooses
 * between equally good occurrences of a quote; it is never a claimed location.
 */
import type { SegmentSpan } from '../store/anchoring-store.ts';

export interface SegmentOffset {
  segmentId: number;
  ordinal: number;
  /** Offsets inside the segment's text. */
  start: number;
  end: number;
}

/** Where the document's range [start, end) falls: the segment holding `start` (or the next one). */
export function segmentAtOffset(spans: readonly SegmentSpan[], start: number, end: number): SegmentOffset | null {
  let at = 0;
  let linesSeen = 0;
  for (const s of spans) {
    // Blank lines before this segment: one line break each.
    if (s.line_start !== null) at += Math.max(0, s.line_start - 1 - linesSeen);
    const from = at;
    const to = at + s.chars;
    if (start < to + 1) {
      const a = Math.max(0, start - from);
      return { segmentId: s.id, ordinal: s.ordinal, start: Math.min(a, s.chars), end: Math.min(Math.max(a, end - from), s.chars) };
    }
    at = to + 1;
    if (s.line_start !== null) linesSeen = s.line_end ?? s.line_start;
  }
  return null;
}

/** Offsets inside a segment of lines [line, lineEnd] (1-based) given the segment's first line. */
export function lineRange(text: string, firstLine: number, line: number, lineEnd: number): { start: number; end: number } {
  let start = line <= firstLine ? 0 : -1;
  let end = text.length;
  let n = firstLine;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 10) continue;
    n++;
    if (n === line) start = i + 1;
    if (n === lineEnd + 1) {
      end = i;
      break;
    }
  }
  return { start: Math.max(0, start), end: Math.max(Math.max(0, start), end) };
}
