/**
 * The built-in offline answerer: extractive, so every sentence of its answer is a verbatim
 * sentence of a workspace source, cited with its exact quote and locator. When nothing relevant
 * is found the answer is NOT_FOUND_ANSWER with no citations: decided here, by control flow.
 */
import type { ClaimedLocator, ImportedAnswer, ImportedCitation } from '../../../shared/imports/model.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import { lineAt, NOT_FOUND_ANSWER, pickSentences, retrieve, type ScoredSentence } from './retrieval.ts';

export { NOT_FOUND_ANSWER };

/** Sentences in an offline answer at most. */
const MAX_SENTENCES = 3;
/** Top passages retrieved per question. */
const RETRIEVE_LIMIT = 20;

export function notFoundAnswer(question: string, format: ImportedAnswer['format']): ImportedAnswer {
  return { format, question, answerText: NOT_FOUND_ANSWER, citations: [] };
}

export function sentenceLocator(s: ScoredSentence): ClaimedLocator {
  const locator: ClaimedLocator = {};
  if (s.row.page !== null) locator.page = s.row.page;
  if (s.row.paragraph !== null) locator.paragraph = s.row.paragraph;
  const line = lineAt(s.row, s.span.start);
  if (line !== undefined) {
    locator.line = line;
    const end = lineAt(s.row, s.span.end);
    if (end !== undefined && end > line) locator.lineEnd = end;
  }
  return locator;
}

export function answerOffline(store: AnchoringStore, question: string): ImportedAnswer {
  const found = retrieve(store, question, { limit: RETRIEVE_LIMIT, excludeRestricted: false });
  const chosen = pickSentences(found.strong, MAX_SENTENCES);
  if (chosen.length === 0) return notFoundAnswer(question, 'evidesk-offline');
  const citations: ImportedCitation[] = chosen.map((s, i) => ({
    marker: String(i + 1),
    claim: s.span.text.replace(/\s+/g, ' '),
    // The exact characters of the source: the quote is a range of the stored text.
    quote: s.row.text.slice(s.span.start, s.span.end),
    context: null,
    sourceRef: { sha256: s.row.sha256, file: s.row.file_name },
    locator: sentenceLocator(s),
    method: 'direct_quote',
    confidence: `${s.matched.length}/${found.terms.length} question terms`,
  }));
  const answerText = citations.map((c) => `${c.claim} [${c.marker}]`).join(' ');
  return { format: 'evidesk-offline', question, answerText, citations };
}
