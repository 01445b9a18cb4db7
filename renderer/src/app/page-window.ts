// The few pages of a long list the renderer holds (issue 16): pages by index, the least recently
// used dropped beyond a bound, so a list of 100,000 rows costs the renderer a few hundred.

export interface PageWindow<T> {
  readonly pageSize: number;
  /** Page index → its rows, in use order (oldest first). */
  readonly pages: ReadonlyMap<number, readonly T[]>;
}

export function emptyWindow<T>(pageSize: number): PageWindow<T> {
  return { pageSize, pages: new Map() };
}

/** The window with page `k` held (most recently used), dropping the oldest beyond `max` pages except those `keep`s. */
export function holdPage<T>(w: PageWindow<T>, k: number, rows: readonly T[], max: number, keep: readonly number[] = []): PageWindow<T> {
  const pages = new Map(w.pages);
  pages.delete(k);
  pages.set(k, rows);
  for (const old of pages.keys()) {
    if (pages.size <= max) break;
    if (old !== k && !keep.includes(old)) pages.delete(old);
  }
  return { pageSize: w.pageSize, pages };
}

/** The row at list position `i`, when its page is held. */
export function rowAt<T>(w: PageWindow<T>, i: number): T | undefined {
  return w.pages.get(Math.floor(i / w.pageSize))?.[i % w.pageSize];
}

/** The pages that hold positions first..last (inclusive). */
export function pagesCovering(pageSize: number, first: number, last: number): number[] {
  if (last < first || first < 0) return [];
  const out: number[] = [];
  for (let k = Math.floor(first / pageSize); k <= Math.floor(last / pageSize); k++) out.push(k);
  return out;
}

/** Every row held, in list order (for lookups by id among what is on screen). */
export function heldRows<T>(w: PageWindow<T>): T[] {
  return [...w.pages.keys()].sort((a, b) => a - b).flatMap((k) => [...(w.pages.get(k) ?? [])]);
}

/** The list position of the first held row matching `pred`, or -1. */
export function findHeld<T>(w: PageWindow<T>, pred: (row: T) => boolean): number {
  for (const [k, rows] of w.pages) {
    const j = rows.findIndex(pred);
    if (j >= 0) return k * w.pageSize + j;
  }
  return -1;
}
