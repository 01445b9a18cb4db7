// Writers of the same thing at the same moment take turns (issue 13, What-to-build 4): two
// reviewers deciding on one citation (each decision supersedes the one committed before it, so the
// line of decisions never forks into two "current" ones), and citations cited into one answer at
// once (each gets the next ordinal). Both are made to race by holding the chain's lock, which
// every write takes last: all have read what they build on before any commits.
import { describe, expect, it } from 'vitest';
import { AUDIT_LOCK_KEY } from '../../../electron/services/store/postgres/schema-access.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';

const ctx = withPgTeam();

const WAITING = "SELECT 1 FROM pg_stat_activity WHERE usename LIKE $1 AND wait_event_type = 'Lock' AND wait_event = 'advisory'";

/** Starts `writes` while the chain's lock is held, and lets them go once `waiters` wait on a lock. */
async function race<T>(loginPattern: string, waiters: number, writes: () => Promise<T>): Promise<T> {
  await ctx.team.owner.query('SELECT pg_advisory_lock($1)', [AUDIT_LOCK_KEY]);
  let pending: Promise<T>;
  try {
    pending = writes();
    await expect.poll(async () => (await ctx.team.owner.query(WAITING, [loginPattern])).rowCount, { timeout: 20_000 }).toBe(waiters);
  } finally {
    await ctx.team.owner.query('SELECT pg_advisory_unlock($1)', [AUDIT_LOCK_KEY]);
  }
  return pending;
}

describe('writers of the same thing at once', () => {
  it('line up one after another instead of both superseding the same one', async () => {
    const doc = pgDocument('decided-twice');
    const { id: sourceId } = await ctx.team.admin.addSource(doc.src, doc.pieces());
    const session = await ctx.team.agentA.openSession({ sessionKey: 'two-reviewers', projectKey: 'alpha', userId: 'ana' });
    const cited = await ctx.team.agentA.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Decided by two.', quote: 'revenue', sourceId, locator: { kind: 'text', paragraph: 1 } });
    const first = await ctx.team.reviewerA.addDecision({ citationId: cited.id, decision: 'flagged' });
    const second = await ctx.team.member('reviewer_a2', 'reviewer', ['alpha']);
    const both = await race(`${ctx.server.loginPrefix}reviewer_a%`, 2, () =>
      Promise.all([ctx.team.reviewerA.addDecision({ citationId: cited.id, decision: 'accepted' }), second.addDecision({ citationId: cited.id, decision: 'rejected' })]),
    );
    const ids = both.map((d) => d.id);
    const rows = await ctx.team.owner.query<{ id: number; supersedes_id: number | null }>('SELECT id, supersedes_id FROM review_decisions WHERE citation_id = $1 ORDER BY id', [cited.id]);
    expect(rows.rows.map((r) => r.id).sort()).toEqual([first.id, ...ids].sort());
    // One line: each supersedes the one before it.
    expect(rows.rows.map((r) => r.supersedes_id)).toEqual([null, rows.rows[0]?.id, rows.rows[1]?.id]);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });

  it('citations cited into one answer at once get one ordinal each, in turn', async () => {
    const doc = pgDocument('cited-at-once');
    const { id: sourceId } = await ctx.team.admin.addSource(doc.src, doc.pieces());
    const session = await ctx.team.agentA.openSession({ sessionKey: 'three-at-once', projectKey: 'alpha', userId: 'ana' });
    // The agent's pool has 4 connections: three cites really run at once.
    const cite = (k: number) => ctx.team.agentA.addCitation({ answerId: session.answerId, marker: `[${k}]`, claim: `Claim ${k}`, quote: 'revenue', sourceId, locator: { kind: 'text', paragraph: 1 } });
    await race(`${ctx.server.loginPrefix}agent_a`, 3, () => Promise.all([cite(1), cite(2), cite(3)]));
    const rows = await ctx.team.owner.query<{ ordinal: number }>('SELECT ordinal FROM citations WHERE answer_id = $1 ORDER BY id', [session.answerId]);
    expect(rows.rows.map((r) => r.ordinal)).toEqual([0, 1, 2]);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });
});
