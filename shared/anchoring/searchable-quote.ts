/**
 * The quote as it should be searched: what a citing tool puts around it is not in the source.
 * Quotation marks and Markdown emphasis or code marks around the whole quote (and the sentence's
 * punctuation after them), ellipses at its
 * ends ("…lapses on 31 March…"), a block-quote ">" and list markers ("(a)", "iv.", "•", "-") at
 * the start of its lines.
 */

const WRAPPING: readonly [string, string][] = [
  ['"', '"'], ['“', '”'], ['„', '“'], ['‘', '’'], ["'", "'"], ['«', '»'], ['»', '«'], ['「', '」'],
  ['```', '```'], ['**', '**'], ['__', '__'], ['`', '`'], ['*', '*'], ['_', '_'],
];

// A list marker or block-quote mark at the start of a line, followed by the line's text. Numbered
// markers stay: whether the source numbers the text the same way is for findQuote to check.
const LINE_MARK_RE = /^[^\S\n]*(?:>[^\S\n]*)*(?:[-*+•◦▪‣⁃–]|\(?(?:[A-Za-z]|[ivxlcIVXLC]{2,6})[.)])[^\S\n]+(?=\S)|^[^\S\n]*(?:>[^\S\n]*)+(?=\S)/gmu;

export function searchableQuote(quote: string): string {
  let q = quote.trim();
  for (let changed = true; changed; ) {
    changed = false;
    // Punctuation of the sentence the quote sits in, after its closing mark ("…31 March”.").
    const unpunctuated = q.replace(/(["”’'`*_»」])[.,;:!?]+$/u, '$1');
    if (unpunctuated !== q) {
      q = unpunctuated;
      changed = true;
    }
    const stripped = q.replace(/^(?:\.{3}|…)\s*/, '').replace(/\s*(?:\.{3}|…)$/, '');
    if (stripped !== q && stripped.length > 0) {
      q = stripped;
      changed = true;
    }
    for (const [open, close] of WRAPPING) {
      if (q.length > open.length + close.length && q.startsWith(open) && q.endsWith(close)) {
        q = q.slice(open.length, q.length - close.length).trim();
        changed = true;
        break;
      }
    }
    const unmarked = q.replace(LINE_MARK_RE, '').trim();
    if (unmarked !== q && /[\p{L}\p{N}]/u.test(unmarked)) {
      q = unmarked;
      changed = true;
    }
  }
  return q;
}
