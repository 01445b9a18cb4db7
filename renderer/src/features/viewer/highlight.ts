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

/** A range of a page's stored text to mark: the cited quote, a find hit, or the find hit shown now. */
export interface PageMark {
  start: number;
  end: number;
  kind: 'quote' | 'find' | 'find-current';
}

/** The mark element's class for a set of kinds (a find hit may fall inside the quote). */
export function markClass(kinds: ReadonlySet<PageMark['kind']>): string {
  const out: string[] = [];
  if (kinds.has('quote')) out.push('quote-highlight');
  if (kinds.has('find') || kinds.has('find-current')) out.push('find-hit');
  if (kinds.has('find-current')) out.push('current');
  return out.join(' ');
}

/**
 * A text item cut at every mark boundary: each piece with the kinds of marks covering it (none
 * for plain text). Offsets are the stored ones: the item starts at `itemStart`.
 */
export function pieces(str: string, itemStart: number, marks: readonly PageMark[]): { text: string; kinds: Set<PageMark['kind']> }[] {
  const cuts = new Set([0, str.length]);
  const touching: PageMark[] = [];
  for (const m of marks) {
    const r = overlap(itemStart, str.length, m.start, m.end);
    if (!r) continue;
    touching.push(m);
    cuts.add(r[0]);
    cuts.add(r[1]);
  }
  if (touching.length === 0) return [{ text: str, kinds: new Set() }];
  const at = [...cuts].sort((a, b) => a - b);
  const out: { text: string; kinds: Set<PageMark['kind']> }[] = [];
  for (let i = 0; i + 1 < at.length; i++) {
    const from = at[i] ?? 0;
    const to = at[i + 1] ?? 0;
    const kinds = new Set(touching.filter((m) => m.start <= itemStart + from && m.end >= itemStart + to).map((m) => m.kind));
    out.push({ text: str.slice(from, to), kinds });
  }
  return out;
}
