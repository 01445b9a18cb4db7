import type { PageText } from '../../../../shared/contract/schemas.ts';
import type { Highlight } from './viewer-store.ts';

/** The part of a text item [itemStart, itemStart + length) that a highlight [start, end) covers. */
export function overlap(itemStart: number, length: number, start: number, end: number): [number, number] | null {
  const a = Math.max(itemStart, start);
  const b = Math.min(itemStart + length, end);
  return a < b ? [a - itemStart, b - itemStart] : null;
}

/**
 * The viewer's text items must be the stored ones, character for character, or a highlight would
 * land on the wrong words: this checks that before anything is marked.
 */
export function itemsMatchStoredText(items: readonly string[], itemStarts: readonly number[], text: string): boolean {
  if (items.length !== itemStarts.length) return false;
  return items.every((str, i) => text.startsWith(str, itemStarts[i] ?? -1));
}

/**
 * The part of a highlight that lies on `page`, whose stored text is `pageLength` characters long:
 * the first page from `start` to `firstEnd` (else its end), pages between whole, the last page from
 * `lastStart` (else 0) to `end`.
 */
export function highlightOnPage(h: Highlight, page: number, pageLength: number): { start: number; end: number } | null {
  const last = h.endPage ?? h.page;
  if (page < h.page || page > last) return null;
  const first = page === h.page;
  const final = page === last;
  const start = Math.min(first ? h.start : final ? (h.lastStart ?? 0) : 0, pageLength);
  const end = Math.min(final ? h.end : first ? (h.firstEnd ?? pageLength) : pageLength, pageLength);
  return start < end ? { start, end } : null;
}

/**
 * A scanned page's OCR words as text-layer items: each item's stored characters (a word runs to the
 * next space or line end) and its box. Null when the stored boxes do not match the stored items
 * (then nothing is drawn or marked rather than marking the wrong words).
 */
export function ocrItems(stored: PageText): { str: string; start: number; box: [number, number, number, number] }[] | null {
  const ocr = stored.ocr;
  if (!ocr || ocr.boxes.length !== stored.itemStarts.length) return null;
  const out: { str: string; start: number; box: [number, number, number, number] }[] = [];
  for (let i = 0; i < stored.itemStarts.length; i++) {
    const start = stored.itemStarts[i] ?? 0;
    const str = /^\S+/.exec(stored.text.slice(start))?.[0];
    const box = ocr.boxes[i];
    if (!str || !box) return null;
    out.push({ str, start, box });
  }
  return out;
}
