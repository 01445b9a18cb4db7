// `evidesk team grant/revoke` (issue 13): a member's level in a project given and taken by the
// command line, over team.ts; the grant lets PostgreSQL accept the member's decision, the revoke
// makes PostgreSQL itself refuse the next one; mistakes get coded errors.
import { beforeAll, describe, expect, it } from 'vitest';
import { PgStore, type PgSession } from '../../../electron/services/store/postgres/pg-store.ts';
import { runCli, type CliIo } from '../../../electron/cli/main.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';

const ctx = withPgTeam();
let session: PgSession;
let citationId: number;

beforeAll(async () => {
  const doc = pgDocument('board-minutes');
  const sourceId = (await ctx.team.admin.addSource(doc.src, doc.pieces())).id;
  session = await ctx.team.agentA.openSession({ sessionKey: 'team-cli-1', projectKey: 'alpha', userId: 'ana' });
  citationId = (await ctx.team.agentA.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Revenue grew.', quote: 'revenue grew', sourceId, locator: { kind: 'text', paragraph: 2 } })).id;
});

async function team(...argv: string[]): Promise<{ code: number; out: string; err: string; json?: { ok: boolean; error?: { code: string; details?: Record<string, unknown> } } }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t) };
  const code = await runCli(['team', ...argv, '--database', ctx.server.ownerUrl], io, {});
  const text = out.join('\n');
  return { code, out: text, err: err.join('\n'), ...(text.startsWith('{') ? { json: JSON.parse(text) as never } : {}) };
}

describe('evidesk team', () => {
  it('grants a reviewer in a project, whose decision PostgreSQL then accepts, and revokes it, after which PostgreSQL refuses', async () => {
    const login = `${ctx.server.loginPrefix}cli_reviewer`;
    const granted = await team('grant', 'reviewer', login, '--project', 'alpha', '--password', 'pw-for-test');
    expect(granted.code, granted.err).toBe(0);
    expect(granted.out).toContain(`${login} is now a reviewer in the project "alpha"`);

    const reviewer = await PgStore.connect(ctx.server.urlFor(login, 'pw-for-test'));
    try {
      expect(reviewer.who.level).toBe('reviewer');
      const first = await reviewer.addDecision({ citationId, decision: 'accepted' });
      expect(first.id).toBeGreaterThan(0);

      const revoked = await team('revoke', 'reviewer', login, '--project', 'alpha', '--json');
      expect(revoked.code, revoked.err).toBe(0);
      expect(revoked.json).toMatchObject({ ok: true, action: 'revoke', levelRevoked: true });

      // The same open connection pool: the database refuses at once, the store names the role.
      await expect(reviewer.addDecision({ citationId, decision: 'rejected' })).rejects.toMatchObject({ code: 'DATABASE_ROLE_REFUSED', details: { sqlstate: '42501' } });
      const seen = await ctx.team.auditor.pool.query<{ n: number }>('SELECT count(*)::integer AS n FROM review_decisions WHERE citation_id = $1', [citationId]);
      expect(seen.rows[0]?.n).toBe(1);
    } finally {
      await reviewer.close();
    }
  });

  it('keeps a level a member still holds in another project', async () => {
    const login = `${ctx.server.loginPrefix}cli_two_projects`;
    expect((await team('grant', 'agent', login, '--project', 'alpha')).code).toBe(0);
    expect((await team('grant', 'agent', login, '--project', 'beta')).code).toBe(0);
    const revoked = await team('revoke', 'agent', login, '--project', 'alpha', '--json');
    expect(revoked.json).toMatchObject({ ok: true, levelRevoked: false });
    const left = await ctx.team.owner.query<{ project_key: string }>('SELECT project_key FROM project_members WHERE member = $1', [login]);
    expect(left.rows.map((r) => r.project_key)).toEqual(['beta']);
  });

  it('gives coded errors for an unknown level, an unknown project, a missing project and a membership that is not there', async () => {
    const login = `${ctx.server.loginPrefix}cli_mistakes`;
    const cases: [string[], Record<string, unknown>][] = [
      [['grant', 'boss', login, '--project', 'alpha'], { role: 'boss' }],
      [['grant', 'reviewer', login, '--project', 'gamma'], { project: 'gamma' }],
      [['grant', 'reviewer', login], { role: 'reviewer' }],
      [['revoke', 'reviewer', `${ctx.server.loginPrefix}agent_a`, '--project', 'alpha'], { role: 'reviewer', project: 'alpha' }],
      [['revoke', 'agent', `${ctx.server.loginPrefix}nobody`, '--project', 'alpha'], { member: `${ctx.server.loginPrefix}nobody` }],
    ];
    for (const [argv, details] of cases) {
      const r = await team(...argv, '--json');
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.json, argv.join(' ')).toMatchObject({ ok: false, error: { code: 'TEAM_CHANGE_INVALID', details } });
    }
    // Nothing was half-made by the refused grants.
    expect((await ctx.team.owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [login])).rowCount).toBe(0);
    const usage = await team('promote', 'reviewer', login);
    expect(usage.code).toBe(2);
  });
});
