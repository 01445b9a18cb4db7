const WRAPPING_QUOTES: readonly [string, string][] = [['"', '"'], ['“', '”'], ['„', '“'], ['‘', '’'], ["'", "'"], ['«', '»'], ['»', '«'], ['「', '」']];

/**
 * The quote as it should be searched: citing tools often wrap it in quotation marks or trim it
 * with ellipses ("…lapses on 31 March…"); neither is in the source.
 */
export function searchableQuote(quote: string): string {
  let q = quote.trim();
  for (let changed = true; changed; ) {
    changed = false;
    const stripped = q.replace(/^(?:\.{3}|…)\s*/, '').replace(/\s*(?:\.{3}|…)$/, '');
    if (stripped !== q && stripped.length > 0) {
      q = stripped;
      changed = true;
    }
    for (const [open, close] of WRAPPING_QUOTES) {
      if (q.length > 2 && q.startsWith(open) && q.endsWith(close)) {
        q = q.slice(open.length, q.length - close.length).trim();
        changed = true;
        break;
      }
    }
  }
  return q;
}
