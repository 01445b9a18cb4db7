// Pure logic of the citation preview: which words of the quote the source matched, and where the
// preview goes so that it never hides the card being read. No DOM here (test/unit/links tests it).

/** A piece of the quote: a word the source has (marked), one it lacks, or the space between. */
export interface QuotePiece {
  text: string;
  matched: boolean | null;
}

const key = (w: string) => w.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** The quote split into words, each marked when the found text has it (null for spaces and punctuation). */
export function markQuote(quote: string, found: string | null): QuotePiece[] {
  const have = new Set((found ?? '').split(/\s+/).map(key).filter(Boolean));
  return quote.split(/(\s+)/).filter((t) => t !== '').map((t) => {
    const k = key(t);
    return { text: t, matched: k === '' ? null : have.has(k) };
  });
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

/**
 * Where the preview (size `size`) goes for a marker at `marker`: below it, else above it, else to
 * the right of the panel, else to its left; the first that fits in the viewport and covers neither
 * the marker nor the card being read (`card`). Null card: below or above, whichever fits.
 */
export function placePreview(marker: Box, card: Box | null, size: { width: number; height: number }, viewport: { width: number; height: number }, panelRight: number): { left: number; top: number } {
  const gap = 6;
  const clampX = (x: number) => Math.max(4, Math.min(x, viewport.width - size.width - 4));
  const candidates = [
    { left: clampX(marker.left), top: marker.top + marker.height + gap },
    { left: clampX(marker.left), top: marker.top - size.height - gap },
    { left: panelRight + gap, top: Math.max(4, Math.min(marker.top, viewport.height - size.height - 4)) },
    { left: marker.left - size.width - gap, top: Math.max(4, Math.min(marker.top, viewport.height - size.height - 4)) },
  ];
  const fits = (p: { left: number; top: number }) => {
    const box = { ...p, ...size };
    return p.left >= 0 && p.top >= 0 && p.left + size.width <= viewport.width && p.top + size.height <= viewport.height && !overlaps(box, marker) && (card === null || !overlaps(box, card));
  };
  return candidates.find(fits) ?? candidates[2]!;
}
