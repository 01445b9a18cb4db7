/**
 * Quotes that run from the foot of one page onto the next, past page furniture (running head and
 * foot, page number) that the quote leaves out.
 */
import type { Segment } from './match-types.ts';
import { type Candidate, type PartHit, partsCandidate, type SearchContext } from './candidates.ts';
import type { NormalisedText } from './normalise.ts';

/** Furniture may take up to this many lines at the foot of a page and at the head of the next. */
const FURNITURE_LINES = 3;
const FURNITURE_LINE_CHARS = 70;
const FURNITURE_ZONE = FURNITURE_LINES * (FURNITURE_LINE_CHARS + 1);

function furnitureLines(text: string): string[] | null {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  if (lines.length > FURNITURE_LINES || lines.some((l) => l.length > FURNITURE_LINE_CHARS)) return null;
  return lines;
}

/**
 * Whether what lies between a quote's head (ending at `endA` in page A) and its tail (starting at
 * `startB` in page B) is page furniture: whole short lines at the foot of A and the head of B,
 * numbered (a page number, a running head with one), or nothing but a line-end hyphen. Body text
 * left out silently is no page break: the quote would misrepresent the source.
 */
function isFurnitureGap(a: Segment, endA: number, b: Segment, startB: number): boolean {
  const rest = a.text.slice(endA).replace(/^[-\u00AD\u2010]/, '');
  const before = b.text.slice(0, startB);
  if (!/^[^\S\n]*(?:\n|$)/.test(rest) || !/(?:^|\n)[^\S\n]*$/.test(before)) return false;
  const foot = furnitureLines(rest);
  const head = furnitureLines(before);
  if (!foot || !head) return false;
  const skipped = [...foot, ...head];
  if (skipped.length === 0) return true;
  return skipped.some((l) => /\p{N}/u.test(l) || /(?:^|\s)[ivxlcdm]{1,7}(?:\s|$)/i.test(l));
}

/**
 * A quote that runs from the foot of one page onto the next with page furniture (running head and
 * foot, page number) between its two parts. Exact and normalised parts only; each at least a few
 * characters. The split is the longest head the foot of the page holds.
 */
export function pageBreakCandidates(ctx: SearchContext, nq: string): Candidate[] {
  const { p } = ctx;
  const m = nq.length;
  const MIN_PART = 4;
  if (m < 2 * MIN_PART + 8) return [];
  const first = nq.slice(0, MIN_PART);
  const last = nq.slice(m - MIN_PART);
  const out: Candidate[] = [];
  for (let k = 0; k + 1 < p.included.length; k++) {
    const ia = p.included[k] ?? 0;
    const ib = p.included[k + 1] ?? 0;
    const sa = p.includedStarts[k] ?? 0;
    const sb = p.includedStarts[k + 1] ?? 0;
    if (p.joined.charCodeAt(sb - 1) !== 0x20) continue; // not neighbours
    const na = p.norms[ia] as NormalisedText;
    const nb = p.norms[ib] as NormalisedText;
    const ea = sa + na.text.length;
    const zoneA = Math.max(sa, ea - FURNITURE_ZONE - m);
    const zoneB = Math.min(sb + nb.text.length, sb + FURNITURE_ZONE + m);
    const tailA = p.joined.slice(zoneA, ea);
    const headB = p.joined.slice(sb, zoneB);
    if (!tailA.includes(first) || !headB.includes(last)) continue;
    // Longest prefix of the quote anywhere in the foot zone (monotone: binary search).
    let lo = MIN_PART;
    let hi = m - MIN_PART;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (tailA.includes(nq.slice(0, mid))) lo = mid;
      else hi = mid - 1;
    }
    // The longest head may run into the furniture by chance: also try the word breaks before it.
    const splits = [lo];
    for (let s = lo - 1; s > MIN_PART && splits.length < 4; s--) if (nq.charCodeAt(s) === 0x20) splits.push(s);
    for (const s of splits) {
      const headText = nq.slice(0, s).trimEnd();
      const tailText = nq.slice(s).trimStart();
      if (headText.length < MIN_PART || tailText.length < MIN_PART) continue;
      const hAt = tailA.lastIndexOf(headText);
      const tAt = headB.indexOf(tailText);
      if (hAt < 0 || tAt < 0) continue;
      const ha = zoneA + hAt;
      const hb = ha + headText.length;
      const ta = sb + tAt;
      const tb = ta + tailText.length;
      const endA = na.ends[hb - 1 - sa] ?? 0;
      const startB = nb.map[ta - sb] ?? 0;
      if (!isFurnitureGap(p.segments[ia] as Segment, endA, p.segments[ib] as Segment, startB)) continue;
      const hit = (a: number, b: number): PartHit => ({ a, b, errors: 0, score: 1, fuzzy: false, mismatch: null });
      const c = partsCandidate(p, [hit(ha, hb), hit(ta, tb)], [{ kind: 'page-furniture' }]);
      if (c) out.push(c);
      break;
    }
  }
  return out;
}
