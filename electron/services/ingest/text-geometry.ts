/**
 * A PDF page's text-item geometry, kept at ingestion (issue 9): where pdf.js placed each text item
 * of the page whose joined text is the stored segment text. The export boxes a quote's characters
 * from it (pdf-excerpt.ts) instead of reading the page's text again with pdf.js, which was about a
 * quarter of drawing an excerpt.
 *
 * Packed as one Float64Array, ITEM_FIELDS numbers per item in getTextContent order (marked-content
 * entries, which carry no text, are skipped as ingestion skips them): the item's length in
 * characters, 1 when a newline follows it in the joined text, its transform (a, b, c, d, e, f),
 * width and height, exactly as pdf.js gives them. Stored as the array's bytes (little-endian, as
 * on every platform the app runs on). Decoding checks the items against the stored text, so
 * geometry that does not belong to it is never used.
 */

/** Numbers per item: length, newline, transform (6), width, height. */
export const ITEM_FIELDS = 10;

/** The fields of a pdf.js text item that the geometry keeps. */
export interface TextItemGeometry {
  str: string;
  hasEOL: boolean;
  width: number;
  height: number;
  transform: number[];
}

/**
 * A page's getTextContent items joined as ingestion joins them (DESIGN.md §4): each item's text,
 * a newline after an item that ends a line; marked-content entries (no `str`) skipped. The text,
 * each item's start in it, and the items.
 */
export function joinTextItems(raw: readonly object[]): { text: string; starts: number[]; items: TextItemGeometry[] } {
  let text = '';
  const starts: number[] = [];
  const items: TextItemGeometry[] = [];
  for (const entry of raw) {
    if (!('str' in entry)) continue;
    const item = entry as TextItemGeometry;
    items.push(item);
    starts.push(text.length);
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return { text, starts, items };
}

/** The page's text items (marked content already left out) as packed geometry. */
export function packTextItems(items: readonly TextItemGeometry[]): Float64Array {
  const out = new Float64Array(items.length * ITEM_FIELDS);
  items.forEach((item, i) => {
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
    out.set([item.str.length, item.hasEOL ? 1 : 0, a, b, c, d, e, f, item.width, item.height], i * ITEM_FIELDS);
  });
  return out;
}

/**
 * The items again, each with its start in `pageText`, or null when the geometry does not join into
 * exactly that text (another length, a newline missing): then it belongs to other text.
 */
export function unpackTextItems(packed: Float64Array, pageText: string): { item: TextItemGeometry; at: number }[] | null {
  if (packed.length % ITEM_FIELDS !== 0) return null;
  const items: { item: TextItemGeometry; at: number }[] = [];
  let at = 0;
  for (let i = 0; i < packed.length; i += ITEM_FIELDS) {
    const length = packed[i]!;
    const eol = packed[i + 1] === 1;
    if (!Number.isInteger(length) || length < 0 || at + length + (eol ? 1 : 0) > pageText.length) return null;
    const str = pageText.slice(at, at + length);
    items.push({ item: { str, hasEOL: eol, transform: Array.from(packed.subarray(i + 2, i + 8)), width: packed[i + 8]!, height: packed[i + 9]! }, at });
    at += length;
    if (eol) {
      if (pageText[at] !== '\n') return null;
      at++;
    }
  }
  return at === pageText.length ? items : null;
}

/** The packed geometry as stored (a BLOB) and back; null for bytes that are not whole items. */
export function geometryBytes(packed: Float64Array): Buffer {
  return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
}

export function geometryFromBytes(bytes: Uint8Array): Float64Array | null {
  if (bytes.byteLength % (8 * ITEM_FIELDS) !== 0) return null;
  // A copy, aligned for Float64Array whatever the offset of the bytes SQLite handed over.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float64Array(copy.buffer);
}
