export interface ByteRange {
  start: number;
  end: number; // inclusive, as in HTTP
}

/**
 * Parses a single-range `Range: bytes=a-b` header against a size. Returns null for no header,
 * 'unsatisfiable' for a range outside the file; multi-range requests get the whole file (pdf.js
 * only sends single ranges).
 */
export function parseRange(header: string | undefined | null, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return null;
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
