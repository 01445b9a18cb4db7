import { PAGE_GAP, type Size } from './zoom.ts';

/** A page's box in the continuous view: its height at `scale` plus the gap below it. */
export function slotHeight(size: Size, scale: number): number {
  return Math.round(size.height * scale) + PAGE_GAP;
}

/** Each page's top in the scroll area (index 0 is page 1), after the leading gap. */
export function pageTops(count: number, sizeOf: (page: number) => Size, scale: number): Float64Array {
  const tops = new Float64Array(count);
  let y = PAGE_GAP;
  for (let i = 0; i < count; i++) {
    tops[i] = y;
    y += slotHeight(sizeOf(i + 1), scale);
  }
  return tops;
}

/** The page whose box holds `y` (1-based); the last page below the end. */
export function pageAt(tops: Float64Array, y: number): number {
  let lo = 0;
  let hi = tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((tops[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * The page to call current for a view from `top` to `bottom`: the page shown now stays while it
 * holds the middle of the view or shows as much as any other (so a quote centred near a page's
 * foot does not move the page box on); else the page showing most, the earlier on a tie.
 */
export function currentPage(tops: Float64Array, heights: (page: number) => number, top: number, bottom: number, shown: number): number {
  if (tops.length === 0) return 1;
  const first = pageAt(tops, top);
  const last = pageAt(tops, bottom);
  const visible = (p: number) => Math.max(0, Math.min(bottom, (tops[p - 1] ?? 0) + heights(p)) - Math.max(top, tops[p - 1] ?? 0));
  let best = first;
  for (let p = first + 1; p <= last; p++) if (visible(p) > visible(best) + 0.5) best = p;
  if (shown >= first && shown <= last) {
    if (pageAt(tops, (top + bottom) / 2) === shown || visible(shown) + 0.5 >= visible(best)) return shown;
  }
  return best;
}
