/**
 * The review trail (issue 9 item 4, issue 12 item 3): decisions, clears and undos are appended as
 * rows with the reviewer's name, each with its audit entry in the same transaction. Accepting a
 * citation whose quote or source was not found, or whose claim its source contradicts, needs a
 * note (REVIEW_NOTE_REQUIRED); the reviewer's name is remembered per workspace.
 */
import type { ReviewData, TrailDecision } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { acceptNeedsNote, decisionInForce, undoPlan } from '../../../shared/review/trail.ts';
import type { ReviewRow } from '../store/answers-store.ts';
import type { AnswersArea, NewReview, ReviewAction, ReviewsArea } from '../store/evidence-store.ts';
import type { SettingsStore } from '../store/settings-store.ts';
import { CitationStatusSchema, ClaimVerdictSchema } from '../../../shared/verification/result-schema.ts';

export function reviewData(r: ReviewRow): ReviewData {
  return {
    id: r.id,
    citationId: r.citation_id,
    decision: r.decision,
    note: r.note,
    supersedesId: r.supersedes_id,
    createdAt: r.created_at,
    reviewer: r.reviewer,
    undoesId: r.undoes_id,
  };
}

/** A citation's trail in the contract's terms: every row, and the decision in force. */
export function trailOf(rows: readonly ReviewRow[]): { history: ReviewData[]; review: ReviewData | null } {
  const history = rows.map(reviewData);
  return { history, review: decisionInForce(history) };
}

/** Where the reviewer's name is kept: the local workspace's settings, or a shared workspace's login. */
export type ReviewerNameStore = Pick<SettingsStore, 'reviewerName' | 'setReviewerName'>;

const asTrailRow = (r: ReviewRow) => ({ id: r.id, decision: r.decision, note: r.note, undoesId: r.undoes_id });

/**
 * Over the store interface (issue 13): the citation, its newest result and its trail come from the
 * engine in use, and each row is written there in one transaction. The remembered name is the
 * local workspace's setting; on PostgreSQL the row records the member's login instead (ReviewsArea).
 */
export class ReviewService {
  private readonly answers: AnswersArea;
  private readonly reviews: ReviewsArea;
  private readonly settings: ReviewerNameStore;
  constructor(store: { answers: AnswersArea; reviews: ReviewsArea }, settings: ReviewerNameStore) {
    this.answers = store.answers;
    this.reviews = store.reviews;
    this.settings = settings;
  }

  reviewer(): string | null {
    return this.settings.reviewerName();
  }

  setReviewer(name: string | null): string | null {
    this.settings.setReviewerName(name);
    return this.settings.reviewerName();
  }

  /** The name a row records: the one given (remembered for next time), else the one remembered. */
  private who(given: string | undefined): string | null {
    if (given !== undefined && given.trim() !== '') return this.setReviewer(given);
    return this.reviewer();
  }

  private async requireCitation(citationId: number) {
    const c = await this.answers.citation(citationId);
    if (!c) throw new AppError('CITATION_NOT_FOUND', `There is no citation with id ${citationId} in this workspace.`);
    return c;
  }

  /** Appends a decision, or 'cleared', to a citation's trail. */
  async decide(citationId: number, decision: TrailDecision, note: string | null, reviewer?: string): Promise<ReviewData> {
    const c = await this.requireCitation(citationId);
    const text = note?.trim() ? note.trim() : null;
    if (decision === 'accepted' && text === null) {
      const latest = await this.answers.latestResult(citationId);
      const status = CitationStatusSchema.safeParse(latest?.status);
      const verdict = ClaimVerdictSchema.safeParse(latest?.verdict);
      const why = status.success && verdict.success ? acceptNeedsNote({ status: status.data, verdict: verdict.data }) : null;
      if (why) {
        throw new AppError('REVIEW_NOTE_REQUIRED', `Accepting citation [${c.marker}] needs a note: ${why}. Say why you accept it anyway.`, {
          citationId,
          marker: c.marker,
          status: status.data,
          verdict: verdict.data,
        });
      }
    }
    const rows = await this.reviews.history(citationId);
    if (decision === 'cleared' && decisionInForce(rows) === null) {
      throw new AppError('REVIEW_NO_DECISION', `Citation [${c.marker}] has no decision to clear.`, { citationId, marker: c.marker });
    }
    return this.append(c.answer_id, { citationId, decision, note: decision === 'cleared' ? null : text, reviewer: this.who(reviewer), undoesId: null }, 'citation.review');
  }

  /** Appends a row restoring what was in force before the last decision, clear or undo still standing. */
  async undo(citationId: number, reviewer?: string): Promise<ReviewData> {
    const c = await this.requireCitation(citationId);
    const rows = await this.reviews.history(citationId);
    const plan = undoPlan(rows.map(asTrailRow));
    if (!plan) throw new AppError('REVIEW_NO_DECISION', `Citation [${c.marker}] has no decision to undo.`, { citationId, marker: c.marker });
    return this.append(c.answer_id, { citationId, decision: plan.decision, note: plan.note, reviewer: this.who(reviewer), undoesId: plan.undoes.id }, 'citation.review.undo');
  }

  private async append(answerId: number, row: NewReview, action: ReviewAction): Promise<ReviewData> {
    return reviewData(await this.reviews.append(row, answerId, action, new Date().toISOString()));
  }
}
