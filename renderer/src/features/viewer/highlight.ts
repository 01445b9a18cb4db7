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
