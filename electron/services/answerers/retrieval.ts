/**
 * Question → passages, shared by the offline and the model answerers: FTS over question words,
 * then sentences scored by how many of the question's content words they contain.
 */
import { STOPWORDS } from '../../../shared/anchoring/index.ts';
import { normalise } from '../../../shared/anchoring/normalise.ts';
import { splitSentences, type Span } from '../../../shared/imports/sentences.ts';
import { stem } from '../../../shared/verification/index.ts';
import type { AnchoringStore, RetrievedRow } from '../store/anchoring-store.ts';

export const NOT_FOUND_ANSWER = "Not found in the workspace's documents.";

// Words that shape a question without saying what it is about.
const QUESTION_WORDS = new Set(
  'many much long often tell give show list describe explain please say says said according document documents source sources workspace answer question know'.split(' '),
);

/** The question's content words, stemmed and distinct; numbers stay (they matter in policy text). */
export function questionTerms(question: string): string[] {
  const out: string[] = [];
  for (const w of normalise(question).match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOPWORDS.has(w) || QUESTION_WORDS.has(w)) continue;
    if (!/\p{N}/u.test(w) && w.length < 2) continue;
    const s = stem(w);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

function termsOf(text: string): Set<string> {
  const set = new Set<string>();
  for (const w of normalise(text).match(/[\p{L}\p{N}]+/gu) ?? []) set.add(stem(w));
  return set;
}

/** An FTS5 query matching any question word, as written or by its stem as a prefix. */
export function ftsQueryFor(question: string): string | null {
  const parts = new Set<string>();
  for (const w of normalise(question).match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOPWORDS.has(w) || QUESTION_WORDS.has(w)) continue;
    if (!/\p{N}/u.test(w) && w.length < 2) continue;
    parts.add(`"${w}"`);
    const s = stem(w);
    if (s.length >= 3 && s !== w) parts.add(`"${s}"*`);
  }
  return parts.size > 0 ? [...parts].join(' OR ') : null;
}

export interface ScoredSentence {
  row: RetrievedRow;
  span: Span;
  /** Question terms the sentence contains. */
  matched: string[];
  /** Position of its segment in the FTS ranking (0 = best). */
  rank: number;
}

export interface Retrieval {
  terms: string[];
  rows: RetrievedRow[];
  /** Sentences that contain at least half of the question's content words, best first. */
  strong: ScoredSentence[];
}

/** Fewer than half of the question's content words in a sentence is too weak to answer from. */
export function strongEnough(matched: number, terms: number): boolean {
  return terms > 0 && matched >= Math.ceil(terms / 2);
}

export function retrieve(store: AnchoringStore, question: string, options: { limit: number; excludeRestricted: boolean }): Retrieval {
  const terms = questionTerms(question);
  const match = ftsQueryFor(question);
  if (terms.length === 0 || match === null) return { terms, rows: [], strong: [] };
  let rows: RetrievedRow[];
  try {
    rows = store.retrieve(match, options.limit, { excludeRestricted: options.excludeRestricted });
  } catch {
    rows = [];
  }
  // A number or year in the question is what it asks about: a sentence without it does not answer it.
  const numbers = terms.filter((t) => /\p{N}/u.test(t));
  const strong: ScoredSentence[] = [];
  rows.forEach((row, rank) => {
    for (const span of splitSentences(row.text)) {
      if (span.text.length < 12 || span.text.length > 800) continue;
      const words = termsOf(span.text);
      if (words.size < 4) continue;
      const matched = terms.filter((t) => words.has(t));
      if (!numbers.every((n) => words.has(n))) continue;
      if (strongEnough(matched.length, terms.length)) strong.push({ row, span, matched, rank });
    }
  });
  strong.sort((a, b) => b.matched.length - a.matched.length || a.rank - b.rank || a.span.start - b.span.start);
  return { terms, rows, strong };
}

/** Up to `max` strong sentences that are not repeats of one another, best first. */
export function pickSentences(strong: readonly ScoredSentence[], max: number): ScoredSentence[] {
  const out: ScoredSentence[] = [];
  const seen = new Set<string>();
  for (const s of strong) {
    const key = normalise(s.span.text);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
    if (out.length >= max) break;
  }
  return out;
}

export function lineAt(row: { line_start: number | null; text: string }, offset: number): number | undefined {
  if (row.line_start === null) return undefined;
  let n = row.line_start;
  for (let i = 0; i < offset; i++) if (row.text.charCodeAt(i) === 10) n++;
  return n;
}
