/** One part of a typed query: a word (prefix when typed with a trailing *) or a "quoted phrase". */
export interface QueryPart {
  words: string[];
  phrase: boolean;
  /** The last word matches any word it begins. */
  prefix: boolean;
}

/**
 * What a person types, in parts: words (AND), "quoted phrases", a trailing * for prefix search.
 * Operators of any search syntax are taken as words, so no input can make a query a syntax error.
 * Both engines build their own query from these parts (FTS5 MATCH here, tsquery on PostgreSQL).
 */
export function queryParts(input: string): QueryPart[] {
  const parts: QueryPart[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (const m of input.matchAll(re)) {
    if (m[1] !== undefined) {
      const words = tokenize(m[1]);
      if (words.length > 0) parts.push({ words, phrase: true, prefix: false });
      continue;
    }
    const raw = m[2] ?? '';
    const prefix = raw.endsWith('*');
    const words = tokenize(raw);
    words.forEach((word, i) => parts.push({ words: [word], phrase: false, prefix: prefix && i === words.length - 1 }));
  }
  return parts;
}

/** A safe FTS5 MATCH expression for what a person typed (null: nothing to search for). */
export function toFtsQuery(input: string): string | null {
  const parts = queryParts(input).map((p) => `"${p.words.join(' ')}"${p.prefix ? '*' : ''}`);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** Words as the unicode61 tokenizer sees them: runs of letters and digits. */
export function tokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/** Snippet markers that cannot occur in extracted text (private use area). */
export const SNIPPET_OPEN = '\uE000';
export const SNIPPET_CLOSE = '\uE001';

/** Splits an FTS snippet with markers into text and highlighted ranges. */
export function parseSnippet(marked: string): { text: string; highlights: [number, number][] } {
  let text = '';
  const highlights: [number, number][] = [];
  let open = -1;
  for (const ch of marked) {
    if (ch === SNIPPET_OPEN) open = text.length;
    else if (ch === SNIPPET_CLOSE) {
      if (open >= 0) highlights.push([open, text.length]);
      open = -1;
    } else text += ch;
  }
  return { text, highlights };
}

/**
 * The first marked run of a highlighted text, as offsets in the text without markers: what a hit
 * highlights in the viewer (a quoted phrase is one run). Null when nothing is marked.
 */
export function firstMarked(marked: string): { start: number; end: number } | null {
  const open = marked.indexOf(SNIPPET_OPEN);
  if (open < 0) return null;
  const close = marked.indexOf(SNIPPET_CLOSE, open);
  // Markers hold one UTF-16 unit each and none come before the first: offsets shift by one only.
  return { start: open, end: (close < 0 ? marked.length : close) - 1 };
}
