/**
 * The review trail (issue 9 item 4, issue 12 item 3): decisions are append-only rows, and every
 * row stores the decision in force after it, so the newest row says where a citation stands.
 * A change of mind is a new row; so is clearing a decision ('cleared': none in force) and so is
 * undoing one (a row restoring what was in force before the row it takes back). Pure: the store,
 * the service, the card and the report all read the trail the same way.
 */
import type { CitationStatus } from '../verification/status.ts';
import type { ClaimVerdict } from '../verification/verdict.ts';

/** What a reviewer can decide. */
export const DECISIONS = ['accepted', 'rejected', 'flagged'] as const;
export type Decision = (typeof DECISIONS)[number];
/** What a row of the trail stores: a decision, or none in force ('cleared'). */
export const TRAIL_DECISIONS = [...DECISIONS, 'cleared'] as const;
export type TrailDecisionValue = (typeof TRAIL_DECISIONS)[number];

export interface TrailRow {
  id: number;
  decision: TrailDecisionValue;
  note: string | null;
  /** Set on an undo row: the row it takes back. */
  undoesId: number | null;
}

/**
 * The rows that an undo would step back through, newest last: every row that is not an undo
 * pushes, every undo pops the row it took back. Rows in id order.
 */
export function undoStack<R extends TrailRow>(rows: readonly R[]): R[] {
  const stack: R[] = [];
  for (const r of rows) {
    if (r.undoesId === null) stack.push(r);
    else if (stack[stack.length - 1]?.id === r.undoesId) stack.pop();
    else {
      // An undo of a row that is not on top (not written by this code): take that row out.
      const i = stack.findIndex((s) => s.id === r.undoesId);
      if (i >= 0) stack.splice(i, 1);
    }
  }
  return stack;
}

/** What an undo now writes: the row it takes back and the decision and note it restores; null when there is nothing to undo. */
export function undoPlan<R extends TrailRow>(rows: readonly R[]): { undoes: R; decision: TrailDecisionValue; note: string | null } | null {
  const stack = undoStack(rows);
  const undoes = stack[stack.length - 1];
  if (!undoes) return null;
  const before = stack[stack.length - 2];
  return { undoes, decision: before?.decision ?? 'cleared', note: before?.note ?? null };
}

/** The decision in force: the newest row's, none when it is 'cleared' or there is no row. */
export function decisionInForce<R extends Pick<TrailRow, 'decision'>>(rows: readonly R[]): R | null {
  const last = rows[rows.length - 1];
  return last && last.decision !== 'cleared' ? last : null;
}

/** Why accepting this citation needs the reviewer's note; null when a plain accept will do. */
export function acceptNeedsNote(result: { status: CitationStatus; verdict: ClaimVerdict } | null): string | null {
  if (!result) return null;
  if (result.status === 'not_found') return 'its quote was not found in the source';
  if (result.status === 'source_unknown') return 'no document in the workspace matches its source';
  if (result.verdict === 'contradicted') return 'the source contradicts the claim';
  if (result.verdict === 'not_found') return 'no evidence for the claim was found';
  return null;
}
