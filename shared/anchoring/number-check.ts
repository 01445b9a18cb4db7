/** Numbers of a quote against the text found: a changed figure is a misquote, never a typo. */
import type { NumberMismatch } from './match-types.ts';

// Thousands separators are formatting, not digits: "1,000" and "1000" are one number.
const NUMBER_RE = /\p{Nd}+(?:,\p{Nd}{3}(?!\p{Nd}))*/gu;

function numbersIn(text: string): string[] {
  return (text.match(NUMBER_RE) ?? []).map((n) => n.replace(/,/g, ''));
}

/**
 * Numbers of the (normalised) quote that the (normalised) source text lacks, and the source's
 * numbers the quote lacks; null when every number of the quote is there. A changed figure, year
 * or section number is not a typo: "45 days" is not a quote of "30 days". Extra numbers in the
 * source (footnote marks, page numbers) are tolerated.
 */
export function numberMismatch(nq: string, found: string): NumberMismatch | null {
  const wanted = numbersIn(nq);
  if (wanted.length === 0) return null;
  const have = new Map<string, number>();
  for (const n of numbersIn(found)) have.set(n, (have.get(n) ?? 0) + 1);
  const missing: string[] = [];
  for (const n of wanted) {
    const left = have.get(n) ?? 0;
    if (left > 0) have.set(n, left - 1);
    else missing.push(n);
  }
  if (missing.length === 0) return null;
  const extra: string[] = [];
  for (const [n, count] of have) for (let i = 0; i < count; i++) extra.push(n);
  return { quote: missing, source: extra };
}

