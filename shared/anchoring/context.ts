/**
 * Context around an anchor (W3C TextQuoteSelector style prefix/suffix) and a word diff for
 * showing partial matches (DESIGN.md §5: `partial` is shown with a word diff).
 */
import { normalise } from './normalise.ts';

export const CONTEXT_CHARS = 32;

export interface Surrounding {
  prefix: string;
  suffix: string;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Up to `n` characters before `start` and after `end`, never splitting a surrogate pair. */
export function surrounding(text: string, start: number, end: number, n: number = CONTEXT_CHARS): Surrounding {
  const s = Math.max(0, Math.min(start, text.length));
  const e = Math.max(s, Math.min(end, text.length));
  let a = Math.max(0, s - n);
  if (a > 0 && isLowSurrogate(text.charCodeAt(a))) a++;
  let b = Math.min(text.length, e + n);
  if (b < text.length && isHighSurrogate(text.charCodeAt(b - 1))) b--;
  return { prefix: text.slice(a, s), suffix: text.slice(e, b) };
}

/** Levenshtein distance; meant for short strings (prefix/suffix comparisons). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = (prev[j] ?? 0) + 1;
      const ins = (cur[j - 1] ?? 0) + 1;
      cur[j] = Math.min(sub, del, ins);
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length] ?? 0;
}

/** 1 − edit distance / expected length, floored at 0: how much of `expected` `actual` keeps. */
export function similarity(expected: string, actual: string): number {
  if (expected.length === 0) return 0;
  return 1 - Math.min(1, editDistance(expected, actual) / expected.length);
}

/**
 * How well the text around a match agrees with the text a citation expects around it (a W3C
 * TextQuoteSelector's prefix and suffix), 0..1, compared normalised; 1 when it expects nothing.
 */
export function contextAgreement(found: Surrounding, expected: { prefix?: string | null; suffix?: string | null }): number {
  const scores: number[] = [];
  const p = normalise(expected.prefix ?? '').slice(-CONTEXT_CHARS);
  const s = normalise(expected.suffix ?? '').slice(0, CONTEXT_CHARS);
  if (p) scores.push(similarity(p, normalise(found.prefix).slice(-p.length)));
  if (s) scores.push(similarity(s, normalise(found.suffix).slice(0, s.length)));
  return scores.length === 0 ? 1 : scores.reduce((a, b) => a + b, 0) / scores.length;
}

export type DiffOp = 'equal' | 'insert' | 'delete';
export interface DiffPart {
  op: DiffOp;
  text: string;
}

/** Above this many LCS cells the diff degrades to delete-all/insert-all rather than stall the UI. */
const MAX_DIFF_CELLS = 4_000_000;

/**
 * Word-level diff from `a` (e.g. the cited quote) to `b` (e.g. the text found in the source):
 * `delete` = only in a, `insert` = only in b. Words compare by their normalised form, so case,
 * ligatures and curly quotes do not show up as changes; `equal` parts carry b's words.
 */
export function wordDiff(a: string, b: string): DiffPart[] {
  const wa = a.split(/\s+/u).filter((w) => w.length > 0);
  const wb = b.split(/\s+/u).filter((w) => w.length > 0);
  const ka = wa.map((w) => normalise(w));
  const kb = wb.map((w) => normalise(w));
  const parts: DiffPart[] = [];
  const push = (op: DiffOp, word: string): void => {
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += ' ' + word;
    else parts.push({ op, text: word });
  };

  // Common prefix and suffix first: partial matches usually differ in a few places.
  let head = 0;
  while (head < ka.length && head < kb.length && ka[head] === kb[head]) head++;
  let tail = 0;
  while (
    tail < ka.length - head &&
    tail < kb.length - head &&
    ka[ka.length - 1 - tail] === kb[kb.length - 1 - tail]
  ) tail++;

  for (let i = 0; i < head; i++) push('equal', wb[i] ?? '');
  const n = ka.length - head - tail;
  const m = kb.length - head - tail;
  if (n > 0 || m > 0) {
    if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_DIFF_CELLS) {
      for (let i = 0; i < n; i++) push('delete', wa[head + i] ?? '');
      for (let j = 0; j < m; j++) push('insert', wb[head + j] ?? '');
    } else {
      // lcs[i][j] = LCS length of a[head+i..] and b[head+j..], filled backwards so the walk is forward.
      const w = m + 1;
      const lcs = new Int32Array((n + 1) * w);
      for (let i = n - 1; i >= 0; i--) {
        for (let j = m - 1; j >= 0; j--) {
          lcs[i * w + j] =
            ka[head + i] === kb[head + j]
              ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1
              : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
        }
      }
      let i = 0;
      let j = 0;
      while (i < n && j < m) {
        if (ka[head + i] === kb[head + j]) {
          push('equal', wb[head + j] ?? '');
          i++;
          j++;
        } else if ((lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0)) {
          push('delete', wa[head + i] ?? '');
          i++;
        } else {
          push('insert', wb[head + j] ?? '');
          j++;
        }
      }
      for (; i < n; i++) push('delete', wa[head + i] ?? '');
      for (; j < m; j++) push('insert', wb[head + j] ?? '');
    }
  }
  for (let i = kb.length - tail; i < kb.length; i++) push('equal', wb[i] ?? '');
  return parts;
}
