import { CITATION_STATUSES } from '../verification/status.ts';
import { CLAIM_VERDICTS } from '../verification/verdict.ts';
import type { CitationMark } from './card-schemas.ts';

/**
 * An answer's markers packed for the wire (issue 16): an answer of 5,000 citations sent its markers
 * as 5,000 objects, about 500 kB of JSON on the way to its first card. Packed, they are its ids, its
 * marker labels and one string of four letters a marker (status, verdict, unit, decision), a
 * sixth of that; the renderer unpacks them into the same marks. zod-free: the renderer's first
 * screen loads this (the wire schema is card-schemas.ts's PackedMarksSchema).
 */
export interface PackedMarks {
  ids: number[];
  markers: string[];
  /** Four characters a mark, each the value's place in its list ('0', '1', …) or '-' for none. */
  codes: string;
}

const UNITS = ['page', 'block', 'line'] as const;
const DECISIONS = ['accepted', 'rejected', 'flagged'] as const;
/** The lists a mark's four codes index, in the order they are written. */
const FIELDS = [CITATION_STATUSES, CLAIM_VERDICTS, UNITS, DECISIONS] as const;
const NONE = '-';

function code(list: readonly string[], value: string | null): string {
  if (value === null) return NONE;
  const i = list.indexOf(value);
  if (i < 0) throw new Error(`"${value}" is not one of ${list.join(', ')}`);
  return String.fromCharCode(48 + i);
}

function decode<T extends string>(list: readonly T[], c: string): T | null {
  if (c === NONE) return null;
  const value = list[c.charCodeAt(0) - 48];
  if (value === undefined) throw new Error(`"${c}" names none of ${list.join(', ')}`);
  return value;
}

export function packMarks(marks: readonly CitationMark[]): PackedMarks {
  return {
    ids: marks.map((m) => m.id),
    markers: marks.map((m) => m.marker),
    codes: marks.map((m) => code(CITATION_STATUSES, m.status) + code(CLAIM_VERDICTS, m.verdict) + code(UNITS, m.unit) + code(DECISIONS, m.decision)).join(''),
  };
}

/** The marks as they were packed; a packing whose parts disagree in length is refused (it was not ours). */
export function unpackMarks(packed: PackedMarks): CitationMark[] {
  const n = packed.ids.length;
  if (packed.markers.length !== n || packed.codes.length !== n * FIELDS.length) {
    throw new Error(`packed marks disagree: ${n} ids, ${packed.markers.length} markers, ${packed.codes.length} codes`);
  }
  return packed.ids.map((id, i) => {
    const at = (f: number) => packed.codes.charAt(i * FIELDS.length + f);
    return {
      id,
      marker: packed.markers[i] ?? '',
      status: decode(CITATION_STATUSES, at(0)),
      verdict: decode(CLAIM_VERDICTS, at(1)),
      unit: decode(UNITS, at(2)),
      decision: decode(DECISIONS, at(3)),
    };
  });
}
