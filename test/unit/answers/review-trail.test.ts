import { describe, expect, it } from 'vitest';
import type { ReviewData } from '../../../shared/contract/answer-schemas.ts';
import { acceptNeedsNote, decisionInForce, undoPlan, undoStack } from '../../../shared/review/trail.ts';
import { decisionPill, filterCitations, isProblem, progressText, trailWhat, withTrailRow } from '../../../renderer/src/features/answers/review-trail.ts';

let next = 1;
function row(decision: ReviewData['decision'], extra: Partial<ReviewData> = {}): ReviewData {
  const id = next++;
  return { id, citationId: 1, decision, note: null, supersedesId: null, createdAt: '2026-11-24T10:00:00.000Z', reviewer: 'Ann', undoesId: null, ...extra };
}

describe('the review trail, read the same way everywhere', () => {
  it('undo steps back through decisions and clears, never through undos; the newest row is in force', () => {
    const a = row('accepted');
    const r = row('rejected', { note: 'No.' });
    const c = row('cleared');
    expect(undoPlan([a, r, c])).toMatchObject({ undoes: c, decision: 'rejected', note: 'No.' });
    const u1 = row('rejected', { note: 'No.', undoesId: c.id });
    expect(undoStack([a, r, c, u1])).toEqual([a, r]);
    expect(undoPlan([a, r, c, u1])).toMatchObject({ undoes: r, decision: 'accepted', note: null });
    const u2 = row('accepted', { undoesId: r.id });
    expect(undoPlan([a, r, c, u1, u2])).toMatchObject({ undoes: a, decision: 'cleared' });
    const u3 = row('cleared', { undoesId: a.id });
    expect(undoPlan([a, r, c, u1, u2, u3])).toBeNull();
    expect(decisionInForce([a, r, c])).toBeNull();
    expect(decisionInForce([a, r, c, u1])).toBe(u1);
    expect(decisionInForce([])).toBeNull();
  });

  it('asks for a note to accept a quote or source not found, or a contradicted or unsupported claim', () => {
    expect(acceptNeedsNote({ status: 'not_found', verdict: 'not_found' })).toMatch(/not found in the source/);
    expect(acceptNeedsNote({ status: 'source_unknown', verdict: 'not_found' })).toMatch(/no document/);
    expect(acceptNeedsNote({ status: 'verified', verdict: 'contradicted' })).toMatch(/contradicts/);
    expect(acceptNeedsNote({ status: 'no_quote', verdict: 'not_found' })).toMatch(/no evidence/);
    expect(acceptNeedsNote({ status: 'verified', verdict: 'supported' })).toBeNull();
    expect(acceptNeedsNote({ status: 'partial', verdict: 'weak' })).toBeNull();
    expect(acceptNeedsNote(null)).toBeNull();
  });

  it('says each row in words, undos with what they took back', () => {
    const a = row('accepted');
    const f = row('flagged');
    const u = row('accepted', { undoesId: f.id });
    const history = [a, f, u];
    expect(history.map((x) => trailWhat(x, history))).toEqual(['Accepted', 'Flagged for follow-up', 'Undid “flagged for follow-up”: back to accepted']);
    expect(trailWhat(row('cleared', { undoesId: a.id }), [a])).toBe('Undid “accepted”: back to no decision');
    expect(decisionPill({ ...row('flagged'), decision: 'flagged' })).toMatchObject({ icon: '⚑', text: 'Flagged', tone: 'warn', hint: expect.stringMatching(/^flagged · by Ann, /) });
    expect(decisionPill({ ...row('rejected', { reviewer: null }), decision: 'rejected' }).hint).toMatch(/^rejected · by an unnamed reviewer, /);
  });

  it('filters cards by review, problems, status and verdict, and counts progress', () => {
    const verified = { id: 1, result: { status: 'verified', verdict: 'supported' }, review: null } as const;
    const weak = { id: 2, result: { status: 'verified', verdict: 'weak' }, review: null } as const;
    const flagged = { id: 3, result: { status: 'verified', verdict: 'supported' }, review: { decision: 'flagged' } } as const;
    const missing = { id: 4, result: { status: 'not_found', verdict: 'not_found' }, review: { decision: 'accepted' } } as const;
    const all = [verified, weak, flagged, missing] as unknown as Parameters<typeof filterCitations>[0];
    const ids = (f: Parameters<typeof filterCitations>[1]) => filterCitations(all, f).map((c) => (c as unknown as { id: number }).id);
    expect(ids('all')).toEqual([1, 2, 3, 4]);
    expect(ids('unreviewed')).toEqual([1, 2]);
    expect(ids('problems')).toEqual([2, 3, 4]);
    expect(ids('status:not_found')).toEqual([4]);
    expect(ids('verdict:weak')).toEqual([2]);
    expect(isProblem({ result: null, review: null })).toBe(true);
    expect(progressText(0, 9)).toBe('0 of 9 reviewed');
    expect(progressText(9, 9)).toBe('all 9 reviewed');
    expect(progressText(0, 0)).toBe('nothing to review');
  });

  it('adds a row to a card: the history grows, the decision in force follows', () => {
    const a = row('accepted');
    const card = withTrailRow({ history: [] as ReviewData[], review: null }, a);
    expect(card).toEqual({ history: [a], review: a });
    const c = row('cleared');
    expect(withTrailRow(card, c)).toEqual({ history: [a, c], review: null });
  });
});
