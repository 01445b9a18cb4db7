/** The words a citing agent gets back: what to do next, and notes with a restricted source's text taken out. */
import type { CiteStatus, ClosestPassage, PassageLocator } from '../../../shared/contract/citation-schemas.ts';
import type { ClaimVerdict } from '../../../shared/verification/index.ts';

/** Notes that carry a source's own words or figures (diffs, misquoted numbers, quoted passages). */
const CARRIES_SOURCE_TEXT = /"|“|differences \(|the source has|the source says/;

export const RESTRICTED_NOTE = 'the source is restricted: its text is never returned, only where the quote is';

/** A restricted source's notes: those that would show its text are left out, and the reader is told why. */
export function redactNotes(notes: readonly string[], restricted: boolean): string[] {
  if (!restricted) return [...notes];
  return [...notes.filter((n) => !CARRIES_SOURCE_TEXT.test(n)), RESTRICTED_NOTE];
}

export function describePlace(l: PassageLocator): string {
  if (l.page !== null) return l.page_label && l.page_label !== String(l.page) ? `p. ${l.page_label} (page ${l.page} of the file)` : `p. ${l.page}`;
  if (l.line !== null) return `line ${l.line}`;
  if (l.paragraph !== null) return `paragraph ${l.paragraph}`;
  return `offset ${l.start}`;
}

/** The locator to cite a place with, as cite's `locator` argument. */
export function citeLocatorFor(l: PassageLocator): string {
  if (l.page !== null) return `{"page": ${l.page}}`;
  if (l.line !== null) return `{"line": ${l.line}}`;
  if (l.paragraph !== null) return `{"paragraph": ${l.paragraph}}`;
  return '{}';
}

export interface AdviceInput {
  status: CiteStatus;
  verdict: ClaimVerdict;
  citationId: number;
  marker: string;
  fileName: string | null;
  sourceText: string;
  matched: PassageLocator | null;
  closest: ClosestPassage | null;
  candidates: number;
  negative: boolean;
}

/** One or two sentences: what the agent should do now. */
export function nextStep(a: AdviceInput): string {
  const supersede = `cite again with related: [{"citation_id": ${a.citationId}, "relation": "supersedes"}]`;
  const closest = a.closest
    ? `The closest passage is ${describePlace(a.closest.locator)} of ${a.closest.file_name}${a.closest.text ? `: "${a.closest.text.slice(0, 300)}"` : ' (restricted: its text is not shown).'}`
    : '';
  if (a.negative) {
    return a.verdict === 'supported'
      ? `Recorded as a negative finding, but ${a.fileName ?? 'the source'} appears to support the claim after all; read it again before relying on the negative finding.`
      : `Recorded as a negative finding: ${a.fileName ?? 'the source'} was checked and does not support the claim. Do not present the claim as sourced from it.`;
  }
  switch (a.status) {
    case 'verified':
      return a.verdict === 'contradicted'
        ? `The quote is in ${a.fileName}, but the claim disagrees with it (see reasons): correct the claim to what the quote says, then ${supersede}.`
        : a.verdict === 'supported'
          ? `Verified. Put ${a.marker} after the claim in your answer.`
          : `The quote is in ${a.fileName}, but it supports the claim only weakly (see reasons): quote the words that carry the claim, or soften the claim.`;
    case 'verified_elsewhere':
      return `The quote is in ${a.fileName} but at ${a.matched ? describePlace(a.matched) : 'another place'}, not where you said: ${supersede} and locator ${a.matched ? citeLocatorFor(a.matched) : '{}'}.`;
    case 'partial':
      return `Only a partial match${a.matched ? ` at ${describePlace(a.matched)}` : ''}: copy the source's exact words (get_source with that page gives them) and ${supersede}. ${closest}`.trim();
    case 'not_found':
      if (a.verdict === 'contradicted') return `The source has these words with other figures: the claim is contradicted. Correct the quote and the claim to what the source says, then ${supersede}. ${closest}`.trim();
      return `The quote is not in ${a.fileName}. ${closest || 'No passage of it shares the quote\'s words.'} Quote the passage that really supports the claim, change the claim, or drop it${a.candidates > 0 ? '; candidate_sources lists where the words do appear' : ''}.`.replace(/\s+/g, ' ');
    case 'source_unknown':
      return a.candidates > 0
        ? `No source in the workspace matches "${a.sourceText}". Cite again with the source_id of one of candidate_sources, or register the document with register_source first.`
        : `No source in the workspace matches "${a.sourceText}". Register the document with register_source (or find it with search_sources), then cite again.`;
    case 'no_quote':
      return `No verbatim_quote was given, so support was judged from the claim and quote_context (verdict: ${a.verdict}). Add the exact words as verbatim_quote for a checked citation.`;
    case 'unverifiable':
      return `Recorded against the custom source ${a.sourceText}; it has no stored text, so the citation cannot be quote-checked. Say so where you use it.`;
  }
}
