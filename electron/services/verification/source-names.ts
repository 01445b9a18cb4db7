/** Source names as citations write them: stable reference texts and loose comparisons of names. */
import { STOPWORDS } from '../../../shared/anchoring/index.ts';
import type { SourceRef } from '../../../shared/imports/model.ts';

/** A stable text for a source reference: the unknown_sources row is keyed on it. */
export function referenceText(ref: SourceRef): string {
  const ordered: Record<string, unknown> = {};
  for (const k of ['sha256', 'file', 'title', 'documentIndex'] as const) if (ref[k] !== undefined) ordered[k] = ref[k];
  return JSON.stringify(ordered);
}

export function describeReference(ref: SourceRef): string {
  if (ref.file) return `"${ref.file}"`;
  if (ref.title) return `"${ref.title}"`;
  if (ref.sha256) return `SHA-256 ${ref.sha256.slice(0, 12)}…`;
  if (ref.documentIndex !== undefined) return `document #${ref.documentIndex} of the request`;
  return 'no source';
}

export function stripExtension(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

/** A name without a document extension ("free culture.pdf"); a title's "5.4" is no extension. */
export function withoutDocExtension(name: string): string {
  return name.replace(/\.(?:pdf|docx?|odt|rtf|txt|text|md|markdown|html?|xhtml)$/i, '');
}

/** Letters and digits only, lowercased: "HR_Policy", "hr policy" and "HR-Policy" are one name. */
export function compactName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

export function nameWords(name: string): string[] {
  return name.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Whether `abbr` is made of a non-empty prefix of each word in turn ("rfullrefman" from
 * "R Full Reference Manual"): the way file names shorten titles.
 */
export function abbreviates(abbr: string, words: readonly string[]): boolean {
  if (words.length < 2 || abbr.length < 4 || abbr.length < words.length) return false;
  let reach = new Set<number>([0]);
  for (const w of words) {
    const next = new Set<number>();
    for (const at of reach) {
      for (let len = 1; len <= w.length && abbr.charCodeAt(at + len - 1) === w.charCodeAt(len - 1); len++) next.add(at + len);
    }
    if (next.size === 0) return false;
    reach = next;
  }
  return reach.has(abbr.length);
}

export function contentWords(name: string): string[] {
  return nameWords(name).filter((w) => !STOPWORDS.has(w));
}

/** All of `some` (two or more words) among `all`. */
export function wordsWithin(some: readonly string[], all: readonly string[]): boolean {
  if (some.length < 2) return false;
  const set = new Set(all);
  return some.every((w) => set.has(w));
}
