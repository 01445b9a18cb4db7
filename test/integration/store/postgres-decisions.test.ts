// Two reviewers of one project deciding on the same citation at the same moment (issue 13,
// What-to-build 4): each decision supersedes the one committed before it, so the citation's line
// of decisions never forks into two "current" ones, and the chain stays whole.
import { describe, expect, it } from 'vitest';
import { AUDIT_LOCK_KEY } from '../../../electron/services/store/postgres/schema-access.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';

const ctx = withPgTeam();

describe('decisions on one citation at once', () => {
  it('line up one after another instead of both superseding the same one', async () => {
    const doc = pgDocument('decided-twice');
    const { id: sourceId } = await ctx.team.admin.addSource(doc.src, doc.pieces());
    const session = await ctx.team.agentA.openSession({ sessionKey: 'two-reviewers', projectKey: 'alpha', userId: 'ana' });
    const cited = await ctx.team.agentA.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Decided by two.', quote: 'revenue', sourceId, locator: { kind: 'text', paragraph: 1 } });
    const first = await ctx.team.reviewerA.addDecision({ citationId: cited.id, decision: 'flagged' });
    const second = await ctx.team.member('reviewer_a2', 'reviewer', ['alpha']);
    // Both decide while the chain's lock is held, so both have read the citation's decisions
    // before either commits: the moment a fork would happen.
    await ctx.team.owner.query('SELECT pg_advisory_lock($1)', [AUDIT_LOCK_KEY]);
    let both: Promise<{ id: number }[]>;
    try {
      both = Promise.all([ctx.team.reviewerA.addDecision({ citationId: cited.id, decision: 'accepted' }), second.addDecision({ citationId: cited.id, decision: 'rejected' })]);
      const waiting = "SELECT 1 FROM pg_stat_activity WHERE usename LIKE $1 AND wait_event_type = 'Lock' AND wait_event = 'advisory'";
      await expect.poll(async () => (await ctx.team.owner.query(waiting, [`${ctx.server.loginPrefix}reviewer_a%`])).rowCount, { timeout: 20_000 }).toBe(2);
    } finally {
      await ctx.team.owner.query('SELECT pg_advisory_unlock($1)', [AUDIT_LOCK_KEY]);
    }
    const ids = (await both).map((d) => d.id);
    const rows = await ctx.team.owner.query<{ id: number; supersedes_id: number | null }>('SELECT id, supersedes_id FROM review_decisions WHERE citation_id = $1 ORDER BY id', [cited.id]);
    expect(rows.rows.map((r) => r.id).sort()).toEqual([first.id, ...ids].sort());
    // One line: each supersedes the one before it.
    expect(rows.rows.map((r) => r.supersedes_id)).toEqual([null, rows.rows[0]?.id, rows.rows[1]?.id]);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });
});
