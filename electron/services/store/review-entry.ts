/**
 * The audit entry of a review row, the same on both engines: the walk compares entries byte for
 * byte, so the payload's keys keep this order.
 */
import type { ReviewRow } from './answers-store.ts';

export function reviewEntryPayload(answerId: number, r: ReviewRow): Record<string, unknown> {
  return { answerId, citationId: r.citation_id, reviewId: r.id, decision: r.decision, note: r.note, supersedes: r.supersedes_id, reviewer: r.reviewer, undoes: r.undoes_id };
}
