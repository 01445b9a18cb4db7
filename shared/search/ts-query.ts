/**
 * The PostgreSQL side of search (issue 13), pure: the tsquery text for what a person typed, and
 * the segment text with its matches marked as SQLite's FTS5 highlight() marks them, so both
 * engines give a hit the same `match` offsets (a quoted phrase as one run).
 */
import { queryParts, SNIPPET_CLOSE, SNIPPET_OPEN, type QueryPart } from './fts-query.ts';

/** A lexeme as to_tsquery reads it: quoted, so no word can be an operator. */
function lexeme(word: string, prefix: boolean): string {
  return `'${word.replace(/'/g, "''")}'${prefix ? ':*' : ''}`;
}

/** to_tsquery input: parts joined by & (AND), a phrase's words by <-> (next to each other). Null: nothing to search for. */
export function toTsQuery(input: string): string | null {
  const parts = queryParts(input);
  if (parts.length === 0) return null;
  return parts
    .map((p) => {
      const words = p.words.map((w, i) => lexeme(w, p.prefix && i === p.words.length - 1));
      return words.length > 1 ? `(${words.join(' <-> ')})` : (words[0] ?? '');
    })
    .join(' & ');
}

/** A word folded as unicode61 with remove_diacritics folds it (and unaccent + lower on PostgreSQL). */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

interface Token {
  start: number;
  end: number;
  folded: string;
}

function tokensOf(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) out.push({ start: m.index, end: m.index + m[0].length, folded: foldWord(m[0]) });
  return out;
}

/** Token ranges [first, last] where a part matches. */
function partMatches(tokens: readonly Token[], part: QueryPart): [number, number][] {
  const words = part.words.map(foldWord);
  const n = words.length;
  const out: [number, number][] = [];
  for (let i = 0; i + n <= tokens.length; i++) {
    const ok = words.every((w, k) => {
      const t = tokens[i + k]?.folded ?? '';
      return part.prefix && k === n - 1 ? t.startsWith(w) : t === w;
    });
    if (ok) out.push([i, i + n - 1]);
  }
  return out;
}

/**
 * The text with every match of the query between SNIPPET_OPEN and SNIPPET_CLOSE; overlapping
 * matches share one pair of markers, as FTS5's highlight() does. Null when nothing matches
 * (the engine found the row by a token its parser splits otherwise, e.g. "37.5").
 */
export function markMatches(text: string, input: string): string | null {
  const tokens = tokensOf(text);
  const ranges = queryParts(input)
    .flatMap((p) => partMatches(tokens, p))
    .sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  if (ranges.length === 0) return null;
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  let out = '';
  let at = 0;
  for (const [first, last] of merged) {
    const start = tokens[first]?.start ?? 0;
    const end = tokens[last]?.end ?? start;
    out += `${text.slice(at, start)}${SNIPPET_OPEN}${text.slice(start, end)}${SNIPPET_CLOSE}`;
    at = end;
  }
  return out + text.slice(at);
}
