/**
 * Where the fuzzy stage looks: windows of the haystack around the hinted segments and around
 * clusters of exact hits of the quote's rarer words, so Myers never scans a large source whole.
 */
import type { Segment } from './match-types.ts';
import type { PreparedSegments } from './prepared-segments.ts';
import { STOPWORDS, WORD_RE } from './candidate-terms.ts';
import { effectiveLength } from './fuzzy-budget.ts';
import { lowerBound } from './candidates.ts';

export interface Window {
  from: number;
  to: number;
}

interface Anchor {
  word: string;
  /** Offsets of the word in the normalised quote. */
  offsets: number[];
  hits: number[];
}

const MAX_HITS_PER_ANCHOR = 300;

/** Words of the normalised quote to look for exactly; each hit implies where the quote would sit. */
function pickAnchors(nq: string, k: number): Anchor[] {
  const byWord = new Map<string, number[]>();
  const add = (w: string, at: number): void => {
    const offs = byWord.get(w);
    if (offs) offs.push(at);
    else byWord.set(w, [at]);
  };
  for (const m of nq.matchAll(WORD_RE)) {
    const w = m[0];
    if (effectiveLength(w) === w.length) {
      add(w, m.index);
      continue;
    }
    // Unspaced Han / kana: three-character pieces stand in for words.
    for (let at = 0; at < w.length; at += 3) add(w.slice(at, at + 3), m.index + at);
  }
  let words = [...byWord.keys()].filter((w) => effectiveLength(w) >= 4 && !STOPWORDS.has(w));
  if (words.length < 3) words = [...byWord.keys()].filter((w) => effectiveLength(w) >= 3);
  words.sort((a, b) => effectiveLength(b) - effectiveLength(a));
  const maxAnchors = Math.max(6, Math.min(12, Math.ceil(nq.length / 12)));
  const anchors: Anchor[] = words.slice(0, maxAnchors).map((w) => ({ word: w, offsets: byWord.get(w) ?? [], hits: [] }));
  if (anchors.length < 3) {
    // Few words (numbers, symbols, CJK runs): fall back to fixed-length pieces of the quote.
    const len = Math.max(4, Math.floor(nq.length / (k + 1)));
    for (let at = 0; at + len <= nq.length && anchors.length < maxAnchors; at += len) {
      anchors.push({ word: nq.slice(at, at + len), offsets: [at], hits: [] });
    }
  }
  return anchors;
}

/** Windows of `joined` worth verifying with Myers: around hinted segments and anchor clusters. */
interface FuzzyPlan {
  /** Around the hinted segments; verified on their own so their best occurrence always surfaces. */
  hinted: Window[];
  /** The whole haystack when small, else clusters backed by several anchors. */
  main: Window[];
  /** Clusters backed by one anchor: verified (batched) only when nothing else matched. */
  weak: Window[];
}

export function fuzzyWindows(p: PreparedSegments<Segment>, nq: string, k: number, hinted: Set<number>, fullScanMaxChars: number): FuzzyPlan {
  const m = nq.length;
  const J = p.joined.length;
  const hintWindows: Window[] = [];
  for (const i of hinted) {
    const s = p.starts[i] ?? -1;
    if (s < 0) continue;
    const len = p.norms[i]?.text.length ?? 0;
    hintWindows.push({ from: s - m - k, to: s + len + m + k });
  }
  if (J <= fullScanMaxChars) return { hinted: hintWindows, main: [{ from: 0, to: J }], weak: [] };

  const anchors = pickAnchors(nq, k);
  for (const a of anchors) {
    for (let at = p.joined.indexOf(a.word); at >= 0; at = p.joined.indexOf(a.word, at + 1)) {
      a.hits.push(at);
      if (a.hits.length > MAX_HITS_PER_ANCHOR) break;
    }
  }
  // Frequent words say little about where the quote sits; keep the rare ones.
  const useful = anchors.filter((a) => a.hits.length > 0 && a.hits.length <= MAX_HITS_PER_ANCHOR);
  if (useful.length === 0 && anchors.every((a) => a.hits.length === 0)) return { hinted: hintWindows, main: [], weak: [] };
  if (useful.length < 2 && anchors.some((a) => a.hits.length > MAX_HITS_PER_ANCHOR)) {
    // Nothing selective to go on: a full Myers pass is still only O(n·k/32).
    return { hinted: hintWindows, main: [{ from: 0, to: J }], weak: [] };
  }

  // Each hit votes for a diagonal (where the quote would start); cluster nearby diagonals.
  const votes: { d: number; a: number }[] = [];
  useful.forEach((a, ai) => {
    for (const h of a.hits) for (const o of a.offsets) votes.push({ d: h - o, a: ai });
  });
  votes.sort((x, y) => x.d - y.d);
  const strong: Window[] = [];
  const weak: Window[] = [];
  const gap = Math.max(k, 8);
  const pad = k + 16;
  const minVotes = useful.length >= 4 ? 2 : 1;
  let i = 0;
  while (i < votes.length) {
    const first = votes[i] as { d: number; a: number };
    const seen = new Set<number>([first.a]);
    let last = first.d;
    let j = i + 1;
    while (j < votes.length && (votes[j] as { d: number }).d - last <= gap) {
      const v = votes[j] as { d: number; a: number };
      seen.add(v.a);
      last = v.d;
      j++;
    }
    const w = { from: first.d - pad, to: last + m + pad };
    (seen.size >= minVotes ? strong : weak).push(w);
    i = j;
  }
  return { hinted: hintWindows, main: strong, weak };
}

/** Sorts, clips, merges, and splits windows at hard breaks (no match crosses a gap). */
export function tidyWindows(p: PreparedSegments<Segment>, ws: Window[]): Window[] {
  const J = p.joined.length;
  const clipped = ws
    .map((w) => ({ from: Math.max(0, w.from), to: Math.min(J, w.to) }))
    .filter((w) => w.to > w.from)
    .sort((a, b) => a.from - b.from);
  const merged: Window[] = [];
  for (const w of clipped) {
    const last = merged[merged.length - 1];
    if (last && w.from <= last.to) last.to = Math.max(last.to, w.to);
    else merged.push({ ...w });
  }
  if (p.hardBreaks.length === 0) return merged;
  const out: Window[] = [];
  for (const w of merged) {
    let from = w.from;
    for (let bi = lowerBound(p.hardBreaks, from); bi < p.hardBreaks.length; bi++) {
      const br = p.hardBreaks[bi] ?? 0;
      if (br >= w.to) break;
      if (br > from) out.push({ from, to: br });
      from = br + 1;
    }
    if (w.to > from) out.push({ from, to: w.to });
  }
  return out;
}
