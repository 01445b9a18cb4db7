import type { FindHit, FindResult } from '../contract/reader-schemas.ts';

export interface PageTextRow {
  page: number;
  label: string | null;
  text: string;
}

/** Counting stops here, so a query like "e" in a 2,400-page manual stays quick. */
const COUNT_CAP = 100_000;
const SNIPPET_SIDE = 48;

/**
 * A phrase as a pattern: words matched literally, case-insensitively, any run of white space
 * between them (a line break in the stored text is a space to the reader). Null for a blank query.
 */
export function phrasePattern(query: string): RegExp | null {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'giu');
}

function snippetOf(text: string, start: number, end: number): { snippet: string; snippetHit: [number, number] } {
  let from = Math.max(0, start - SNIPPET_SIDE);
  let to = Math.min(text.length, end + SNIPPET_SIDE);
  // Start and end on word boundaries where there is one near.
  const space = text.indexOf(' ', from);
  if (from > 0 && space >= 0 && space < start) from = space + 1;
  const back = text.lastIndexOf(' ', to);
  if (to < text.length && back >= end) to = back;
  const before = text.slice(from, start).replace(/\s/g, ' ');
  const hit = text.slice(start, end).replace(/\s/g, ' ');
  const after = text.slice(end, to).replace(/\s/g, ' ');
  const lead = from > 0 ? '…' : '';
  const tail = to < text.length ? '…' : '';
  const at = lead.length + before.length;
  return { snippet: `${lead}${before}${hit}${after}${tail}`, snippetHit: [at, at + hit.length] };
}

/** Every match of `query` in the pages, in page order; at most `limit` listed, all counted (to a cap). */
export function findInPages(pages: readonly PageTextRow[], query: string, limit: number): FindResult {
  const pattern = phrasePattern(query);
  if (!pattern) return { hits: [], total: 0, truncated: false };
  const hits: FindHit[] = [];
  let total = 0;
  for (const p of pages) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(p.text); m; m = pattern.exec(p.text)) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      total++;
      if (hits.length < limit) hits.push({ page: p.page, pageLabel: p.label, start: m.index, end: m.index + m[0].length, ...snippetOf(p.text, m.index, m.index + m[0].length) });
      if (total >= COUNT_CAP) return { hits, total, truncated: true };
    }
  }
  return { hits, total, truncated: total > hits.length };
}
