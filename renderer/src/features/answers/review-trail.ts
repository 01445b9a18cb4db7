// Pure logic of the review trail on the desk: the trail in sentences, the card filters, progress.
// No DOM here (test/unit/answers/review-trail.test.ts tests it).
import type { CitationDetail, ReviewData } from '../../../../shared/contract/answer-schemas.ts';
import { decisionInForce } from '../../../../shared/review/trail.ts';
import { CITATION_STATUSES, type CitationStatus } from '../../../../shared/verification/status.ts';
import { CLAIM_VERDICTS, type ClaimVerdict } from '../../../../shared/verification/verdict.ts';

import { PROBLEM_STATUSES, PROBLEM_VERDICTS } from '../../../../shared/contract/card-problems.ts';
import type { Label } from './selectors.ts';

export { acceptNeedsNote } from '../../../../shared/review/trail.ts';

const DECISION: Record<Exclude<ReviewData['decision'], 'cleared'>, Omit<Label, 'hint'>> = {
  accepted: { icon: '✓', text: 'Accepted', tone: 'ok' },
  rejected: { icon: '✖', text: 'Rejected', tone: 'bad' },
  flagged: { icon: '⚑', text: 'Flagged', tone: 'warn' },
};

/** The decision in force as a card shows it: a word for people; the code, who and when in the tooltip. */
export function decisionPill(review: ReviewData & { decision: Exclude<ReviewData['decision'], 'cleared'> }): Label {
  return { ...DECISION[review.decision], hint: `${review.decision} · by ${trailWho(review)}, ${whenText(review.createdAt)}` };
}

const DONE: Record<ReviewData['decision'], string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  flagged: 'Flagged for follow-up',
  cleared: 'Cleared the decision',
};
const STATE: Record<ReviewData['decision'], string> = {
  accepted: 'accepted',
  rejected: 'rejected',
  flagged: 'flagged',
  cleared: 'no decision',
};

/** When, as people read it; the stored text when it is no time. */
export function whenText(iso: string, locale?: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** One row of the trail as a sentence: what was done (an undo says what it took back and where it left things). */
export function trailWhat(row: ReviewData, history: readonly ReviewData[]): string {
  if (row.undoesId === null) return DONE[row.decision];
  const undone = history.find((r) => r.id === row.undoesId);
  const what = undone ? (undone.undoesId !== null ? 'an undo' : `“${DONE[undone.decision].toLowerCase()}”`) : 'the last decision';
  return `Undid ${what}: back to ${STATE[row.decision]}`;
}

export function trailWho(row: ReviewData): string {
  return row.reviewer ?? 'an unnamed reviewer';
}

/** Which cards the desk shows. */
export type CardFilter = 'all' | 'unreviewed' | 'problems' | `status:${CitationStatus}` | `verdict:${ClaimVerdict}`;

export const CARD_FILTERS: readonly CardFilter[] = ['all', 'unreviewed', 'problems', ...CITATION_STATUSES.map((s) => `status:${s}` as const), ...CLAIM_VERDICTS.map((v) => `verdict:${v}` as const)];

export function isCardFilter(s: string): s is CardFilter {
  return (CARD_FILTERS as readonly string[]).includes(s);
}


/** A citation that needs a closer look: not placed or only partly, a weak or contradicted claim, or flagged. */
export function isProblem(c: Pick<CitationDetail, 'result' | 'review'>): boolean {
  if (c.review?.decision === 'flagged') return true;
  if (!c.result) return true;
  return PROBLEM_STATUSES.includes(c.result.status) || PROBLEM_VERDICTS.includes(c.result.verdict);
}

export function matchesFilter(c: Pick<CitationDetail, 'result' | 'review'>, filter: CardFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'unreviewed') return c.review === null;
  if (filter === 'problems') return isProblem(c);
  if (filter.startsWith('status:')) return c.result?.status === filter.slice('status:'.length);
  return c.result?.verdict === filter.slice('verdict:'.length);
}

/** The citations a filter shows, in card order. */
export function filterCitations<C extends Pick<CitationDetail, 'result' | 'review'>>(citations: readonly C[], filter: CardFilter): C[] {
  return citations.filter((c) => matchesFilter(c, filter));
}

/** A citation after a new trail row: the row appended, the decision in force recomputed. */
export function withTrailRow<C extends Pick<CitationDetail, 'history' | 'review'>>(c: C, row: ReviewData): C {
  const history = [...c.history, row];
  return { ...c, history, review: decisionInForce(history) };
}

/** "2 of 9 reviewed" for the answer list (also with none reviewed yet). */
export function progressText(reviewed: number, total: number): string {
  if (total === 0) return 'nothing to review';
  return reviewed >= total ? `all ${total} reviewed` : `${reviewed} of ${total} reviewed`;
}
