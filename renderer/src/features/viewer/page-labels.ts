import { countWords } from '../../../../shared/text/count-words.ts';

/**
 * What the page box accepts: a printed page label ("iv", "A-3", "212") first, as the document
 * prints it, else a page number counted from the file's first page. Null when neither fits.
 */
export function resolvePageInput(input: string, labels: readonly (string | null)[], pageCount: number): number | null {
  const typed = input.trim();
  if (!typed) return null;
  const exact = labels.findIndex((l) => l === typed);
  if (exact >= 0) return exact + 1;
  const folded = typed.toLowerCase();
  const loose = labels.findIndex((l) => l !== null && l.toLowerCase() === folded);
  if (loose >= 0) return loose + 1;
  if (/^\d+$/.test(typed)) {
    const n = Number(typed);
    if (n >= 1 && (pageCount === 0 || n <= pageCount)) return n;
  }
  return null;
}

/** The document prints its own numbers: some page's label is not its page number. */
export function hasOwnLabels(labels: readonly (string | null)[]): boolean {
  return labels.some((l, i) => l !== null && l !== String(i + 1));
}

/** The label the page box and messages use: the printed label where the page has its own. */
export function pageName(page: number, labels: readonly (string | null)[]): string {
  const label = labels[page - 1];
  return label && label !== String(page) ? `${label} (p. ${countWords(page)})` : countWords(page);
}
