/**
 * Bounds on a number: "not exceed 4 grams", "no more than 4 grams", "at most 4 grams" and "up to 4
 * grams" state one upper bound; "at least", "no fewer than" and "a minimum of" one lower bound;
 * "more than", "over", "above", "older than" and "exceeds" a strict lower bound; "less than",
 * "under", "below" a strict upper one. Two texts that state the same bound say the same thing,
 * whichever words they use; a claim whose bound the source's amount or bound cannot meet ("not
 * exceed 5" for "7", "at most 4" for "at least 4") is contradicted.
 */
import { porterStem } from '../porter-stem.ts';
import { STOPWORDS } from '../../anchoring/candidate-terms.ts';

/** ≤ (max), ≥ (min), > (gt), < (lt). */
export type BoundKind = 'max' | 'min' | 'gt' | 'lt';

export interface Bound {
  kind: BoundKind;
  value: number;
  /** Stem of the word the number counts, or '' when none follows. */
  unit: string;
  percent: boolean;
  /** The bound as written, with the word it counts ("no more than 4 grams"). */
  text: string;
  /** Offsets of the bound's own words (cue and number, not the word it counts) in the text. */
  start: number;
  end: number;
}

// Cues before the number, longest first so that "no more than" is not read as "more than".
const BEFORE: readonly (readonly [RegExp, BoundKind])[] = [
  [/(?:no|not) (?:more|greater|higher|larger|longer|later|older) than/, 'max'],
  [/(?:(?:does|do|did|may|must|shall|should|will|can|could|would|might) )?(?:not|never) (?:to )?exceed(?:ing)?|[a-z]*n't (?:to )?exceed(?:ing)?|cannot exceed/, 'max'],
  [/at (?:the )?most|up to|(?:a |the )?maximum (?:of )?|max\.? |no more than|not to exceed/, 'max'],
  [/(?:no|not) (?:fewer|less|lower|shorter|smaller|younger) than/, 'min'],
  [/at (?:the )?least|(?:a |the )?minimum (?:of )?|min\.? /, 'min'],
  [/(?:more|greater|higher|larger|longer|older) than|in excess of|upwards of|over|above|exceed(?:s|ed|ing)?/, 'gt'],
  [/(?:less|fewer|lower|shorter|smaller|younger) than|under|below/, 'lt'],
];
// Cues after the number and its unit: "25 days or more", "5 or fewer".
const AFTER: readonly (readonly [RegExp, BoundKind])[] = [
  [/^ or (?:more|longer|above|over|greater|higher|older)\b/, 'min'],
  [/^ or (?:less|fewer|under|below|lower|shorter|younger)\b/, 'max'],
];

const CUE_RE = new RegExp(`\\b(${BEFORE.map(([re]) => re.source).join('|')})\\s*$`);
const NUMBER_RE = /(?<![\p{L}\p{N}.,])([$€£¥]\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\s?%|\s?percent\b|\s?per cent\b)?(?:\s+([\p{L}]+))?/gu;
const STOP_UNITS: ReadonlySet<string> = new Set([...STOPWORDS, 'fewer', 'less', 'cannot', 'not', 'never', 'no']);

function kindOfCue(cue: string): BoundKind | null {
  for (const [re, kind] of BEFORE) if (new RegExp(`^(?:${re.source})\\s*$`).test(cue)) return kind;
  return null;
}

/** The bounds a text states on its numbers. */
export function readBounds(text: string): Bound[] {
  const t = text.toLowerCase().replace(/[’]/g, "'");
  const out: Bound[] = [];
  for (const m of t.matchAll(NUMBER_RE)) {
    const before = t.slice(Math.max(0, m.index - 40), m.index);
    const unitWord = m[5] && !STOP_UNITS.has(m[5]) ? m[5] : '';
    // The bound's words end with its number: the word it counts is read as any other word.
    const numberEnd = m.index + m[0].length - (m[5] ? m[5].length : 0);
    const percent = !!m[4];
    const value = Number((m[2] ?? '').replace(/,/g, '') + (m[3] ?? ''));
    const cue = CUE_RE.exec(before);
    let kind: BoundKind | null = cue ? kindOfCue(cue[1] ?? '') : null;
    let start = cue ? m.index - (before.length - (cue.index ?? 0)) : m.index;
    let end = numberEnd;
    if (!kind) {
      const after = t.slice(m.index + m[0].length - (m[5] && !unitWord ? m[5].length : 0)).slice(0, 16);
      for (const [re, k] of AFTER) {
        const a = re.exec(after);
        if (a) {
          kind = k;
          end = m.index + m[0].length - (m[5] && !unitWord ? m[5].length : 0) + a[0].length;
          start = m.index;
          break;
        }
      }
    }
    if (!kind) continue;
    const label = text.slice(start, Math.max(end, m.index + m[0].length - (m[5] && !unitWord ? m[5].length : 0))).trim();
    out.push({ kind, value, unit: unitWord ? porterStem(unitWord) : '', percent, text: label, start, end });
  }
  return out;
}

/** The values a bound admits, as an interval with open or closed ends. */
function interval(b: { kind: BoundKind | 'exact'; value: number }): { lo: number; hi: number; loOpen: boolean; hiOpen: boolean } {
  switch (b.kind) {
    case 'max': return { lo: -Infinity, hi: b.value, loOpen: true, hiOpen: false };
    case 'lt': return { lo: -Infinity, hi: b.value, loOpen: true, hiOpen: true };
    case 'min': return { lo: b.value, hi: Infinity, loOpen: false, hiOpen: true };
    case 'gt': return { lo: b.value, hi: Infinity, loOpen: true, hiOpen: true };
    default: return { lo: b.value, hi: b.value, loOpen: false, hiOpen: false };
  }
}

function disjoint(a: ReturnType<typeof interval>, b: ReturnType<typeof interval>): boolean {
  if (a.hi < b.lo || b.hi < a.lo) return true;
  if (a.hi === b.lo && (a.hiOpen || b.loOpen)) return true;
  if (b.hi === a.lo && (b.hiOpen || a.loOpen)) return true;
  return false;
}

const UP: ReadonlySet<BoundKind> = new Set(['min', 'gt']);

/** Whether two bounds may count the same thing: the same unit word, or none on one side, and the same percent sign. */
function sameThing(a: { unit: string; percent: boolean }, b: { unit: string; percent: boolean }): boolean {
  if (a.percent !== b.percent) return false;
  return a.unit === b.unit || a.unit === '' || b.unit === '';
}

/** Whether two bounds surely count the same thing: the same unit word, or both percentages. */
function surelySameThing(a: { unit: string; percent: boolean }, b: { unit: string; percent: boolean }): boolean {
  return a.percent === b.percent && (a.unit !== '' ? a.unit === b.unit : a.percent && b.unit === '');
}

/** Whether the evidence states the claim's bound (the same direction, value and unit), whatever its words. */
export function sameBound(claim: Bound, evidence: readonly Bound[]): Bound | undefined {
  return evidence.find((e) => e.kind === claim.kind && e.value === claim.value && sameThing(claim, e));
}

/**
 * The claim's bounds that the evidence's amounts or bounds of the same thing cannot meet: their
 * ranges do not meet, or they run opposite ways from one value ("at most 4" for "at least 4").
 */
export function unmetBounds(claim: string, evidence: string): string[] {
  const out: string[] = [];
  const eBounds = readBounds(evidence);
  const eNumbers = [...evidence.toLowerCase().matchAll(NUMBER_RE)]
    .filter((m) => !eBounds.some((b) => m.index >= b.start && m.index < b.end))
    .map((m) => ({ kind: 'exact' as const, value: Number((m[2] ?? '').replace(/,/g, '') + (m[3] ?? '')), unit: m[5] && !STOP_UNITS.has(m[5]) ? porterStem(m[5]) : '', percent: !!m[4], text: m[0].trim() }));
  for (const c of readBounds(claim)) {
    // Only amounts that name what they count alike are compared with a bound of the claim.
    const others = [...eBounds, ...eNumbers];
    for (const e of others) {
      if (!surelySameThing(c, e)) continue;
      const opposite = e.kind !== 'exact' && e.value === c.value && UP.has(c.kind) !== UP.has(e.kind);
      if (opposite || disjoint(interval(c), interval(e))) {
        out.push(`the claim says "${c.text}", the source says "${e.text}"`);
        break;
      }
    }
  }
  return out;
}

/**
 * The claim's bounds that the source states only more loosely on the same value: "more than 5
 * years" for "at least 5 years", "under 16" for "16 or under". Not the claim, not its opposite.
 */
export function looserBounds(claim: string, evidence: string): string[] {
  const eBounds = readBounds(evidence);
  const out: string[] = [];
  for (const c of readBounds(claim)) {
    if (sameBound(c, eBounds)) continue;
    const e = eBounds.find((x) => x.value === c.value && sameThing(c, x) && UP.has(c.kind) === UP.has(x.kind));
    if (e) out.push(`the claim says "${c.text}"; the source only says "${e.text}"`);
  }
  return out;
}
