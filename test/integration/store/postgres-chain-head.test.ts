// The shared chain's end is anchored (issue 13, Done-when 3): audit_head (PostgreSQL migration 13)
// moves with every appended entry and nothing else may move it; `evidesk audit verify --database`
// holds the chain to it and to the head this member saw last (a file in the member's folder). The
// table owner who deletes the newest entries is reported, with the entries that are gone named;
// one who also rewinds audit_head is caught by the member's own head file.
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../../electron/cli/main.ts';
import { memberHeadPath } from '../../../electron/services/audit/member-head-file.ts';
import type { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { APPEND_ONLY_SQLSTATE } from '../../../electron/services/store/postgres/schema-evidence.ts';
import { entryHash } from '../../../shared/audit/canonical.ts';
import { sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';
import { tempDir } from '../../support/workspace.ts';

const ctx = withPgTeam();
let sourceId: number;
let auditorUrl: string;
/** The auditor's own folder: where its head file of the shared chain is kept. */
let auditorDir: string;

beforeAll(async () => {
  const doc = pgDocument('board-minutes');
  sourceId = (await ctx.team.admin.addSource(doc.src, doc.pieces())).id;
  auditorUrl = await ctx.team.memberUrl('auditor_cli', 'auditor', []);
  auditorDir = tempDir('evidesk-member-');
});

async function cite(agent: PgStore, sessionKey: string, n: number): Promise<void> {
  const session = await agent.openSession({ sessionKey, projectKey: 'alpha', userId: 'ana' });
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      agent.addCitation({ answerId: session.answerId, marker: `[${i + 1}]`, claim: `Claim ${i}`, quote: 'the quarterly revenue grew', sourceId, locator: { kind: 'text', paragraph: 1 } }),
    ),
  );
}

async function verify(dir = auditorDir): Promise<{ code: number; out: string; check: AuditCheckData }> {
  const out: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => out.push(t) };
  const json = await runCli(['--workspace', dir, '--database', auditorUrl, 'audit', 'verify', '--json'], io, {});
  const check = AuditCheckData.parse(JSON.parse(out.join('\n')));
  const text: string[] = [];
  const code = await runCli(['--workspace', dir, '--database', auditorUrl, 'audit', 'verify'], { out: (t) => text.push(t), err: (t) => text.push(t) }, {});
  expect(code).toBe(json);
  return { code, out: text.join('\n'), check };
}

async function head(): Promise<{ chain_id: string; count: number; hash: string; database: string }> {
  const r = await ctx.team.owner.query<{ chain_id: string; count: string; hash: string; database: string }>('SELECT chain_id::text AS chain_id, count, hash, current_database() AS database FROM audit_head');
  const row = r.rows[0];
  if (!row) throw new Error('no audit_head row');
  return { ...row, count: Number(row.count) };
}

async function withTrigger<T>(table: string, trigger: string, fn: () => Promise<T>): Promise<T> {
  // Only the owner (or a superuser) can switch a trigger off: exactly the insider the anchor is for.
  await ctx.team.owner.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
  try {
    return await fn();
  } finally {
    await ctx.team.owner.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
  }
}

describe("the shared chain's head", () => {
  it('moves with every entry two agents append at once, and the chain verifies against it', async () => {
    const second = await ctx.team.member('agent_a2', 'agent', ['alpha']);
    await Promise.all([cite(ctx.team.agentA, 'head-1', 6), cite(second, 'head-2', 6)]);
    const log = await ctx.team.owner.query<{ n: string; hash: string }>('SELECT count(*) OVER () AS n, hash FROM audit_log ORDER BY id DESC LIMIT 1');
    // 1 source, 2 answers, 2 sessions, 12 citations, 12 contexts.
    expect(await head()).toMatchObject({ count: 29, hash: log.rows[0]?.hash });
    expect(Number(log.rows[0]?.n)).toBe(29);
    const report = await ctx.team.auditor.verifyChain();
    expect(report).toMatchObject({ ok: true, entries: 29, anchored: true });

    const first = await verify();
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain("anchored in the shared head record and in this member's head file");
    // The member's head file now holds what it saw.
    const { chain_id: chainId, database } = await head();
    const file = JSON.parse(fs.readFileSync(memberHeadPath(auditorDir, { chainId, database, login: `${ctx.server.loginPrefix}auditor_cli` }), 'utf8')) as { count: number; hash: string };
    expect(file).toMatchObject({ count: 29, hash: log.rows[0]?.hash });
    // A third session: its answer, the session, 2 citations and their contexts.
    await cite(ctx.team.agentA, 'head-3', 2);
    expect((await verify()).check).toMatchObject({ ok: true, rows: 35 });
  });

  it('refuses any change to the head but an appended entry, even from the owner', async () => {
    await expect(ctx.team.owner.query('UPDATE audit_head SET count = count - 1')).rejects.toMatchObject({ code: APPEND_ONLY_SQLSTATE });
    await expect(ctx.team.owner.query('DELETE FROM audit_head')).rejects.toMatchObject({ code: APPEND_ONLY_SQLSTATE });
    await expect(ctx.team.owner.query('TRUNCATE audit_head')).rejects.toMatchObject({ code: APPEND_ONLY_SQLSTATE });
    await expect(ctx.team.owner.query("INSERT INTO audit_head (count, hash) VALUES (0, repeat('0', 64))")).rejects.toBeTruthy();
    // Members read it; they cannot write it.
    expect((await ctx.team.agentA.recordedHead())?.count).toBe(35);
    await expect(ctx.team.agentA.pool.query('UPDATE audit_head SET count = 0')).rejects.toBeTruthy();
  });

  it("reports the owner's deletion of the newest entries, naming the ones that are gone", async () => {
    const gone = await ctx.team.owner.query('SELECT * FROM audit_log WHERE seq > 32 ORDER BY id');
    expect(gone.rows).toHaveLength(3);
    await withTrigger('audit_log', 'audit_log_append_only', () => ctx.team.owner.query('DELETE FROM audit_log WHERE seq > 32'));
    try {
      const after = await verify(tempDir('evidesk-member-fresh-'));
      expect(after.code).toBe(3);
      expect(after.check.brokenAt).toMatchObject({ kind: 'truncated', seq: 33 });
      expect(after.out).toContain('✖ The shared audit chain is broken (truncated)');
      expect(after.out).toContain('The chain was cut short: the shared head record (audit_head) counts 35 audit entries, the audit log holds 32 (the last 3 entries are gone: entries 33 to 35).');
    } finally {
      // Put back as they were (the owner's copy moves the head on: rewound first, past its guard).
      await withTrigger('audit_head', 'audit_head_guard', () => ctx.team.owner.query('UPDATE audit_head SET count = 32'));
      for (const r of gone.rows as Record<string, unknown>[]) {
        const cols = Object.keys(r);
        await ctx.team.owner.query(`INSERT INTO audit_log (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, cols.map((c) => r[c]));
      }
    }
    expect((await verify()).check).toMatchObject({ ok: true, rows: 35 });
  });

  it('reports the newest entry rewritten with its hash recomputed (the walk alone would find it consistent)', async () => {
    const last = (await ctx.team.owner.query<{ id: string; seq: string; action: string; table_name: string | null; row_id: string | null; row_hash: string | null; payload: string; created_at: string; prev_hash: string; hash: string }>('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0];
    if (!last) throw new Error('no entry');
    const payload = '{"rewritten":true}';
    const hash = entryHash({ seq: Number(last.seq), prevHash: last.prev_hash, action: last.action, table: last.table_name, rowId: last.row_id === null ? null : Number(last.row_id), rowHash: last.row_hash, payload, createdAt: last.created_at }, sha256Text);
    await withTrigger('audit_log', 'audit_log_append_only', () => ctx.team.owner.query('UPDATE audit_log SET payload = $2, hash = $3 WHERE id = $1', [last.id, payload, hash]));
    try {
      const after = await verify(tempDir('evidesk-member-fresh-'));
      expect(after.code).toBe(3);
      expect(after.check.brokenAt).toMatchObject({ kind: 'rewritten_tail', seq: 35 });
      expect(after.out).toContain('The end of the chain was rewritten: audit entry 35 no longer has the hash the shared head record (audit_head) recorded on');
    } finally {
      await withTrigger('audit_log', 'audit_log_append_only', () => ctx.team.owner.query('UPDATE audit_log SET payload = $2, hash = $3 WHERE id = $1', [last.id, last.payload, last.hash]));
    }
    expect((await verify()).check.ok).toBe(true);
  });

  it("catches an owner who cut the log and rewound the head together, through the member's own head file", async () => {
    const before = await head();
    const kept = await ctx.team.owner.query<{ hash: string }>('SELECT hash FROM audit_log WHERE seq = 33');
    await withTrigger('audit_log', 'audit_log_append_only', () => ctx.team.owner.query('DELETE FROM audit_log WHERE seq > 33'));
    await withTrigger('audit_head', 'audit_head_guard', () => ctx.team.owner.query('UPDATE audit_head SET count = 33, hash = $1', [kept.rows[0]?.hash]));
    // The rows the cut entries recorded go too, so the database alone holds a consistent, shorter chain.
    await withTrigger('citation_contexts', 'citation_contexts_append_only', () =>
      ctx.team.owner.query("DELETE FROM citation_contexts WHERE id NOT IN (SELECT row_id FROM audit_log WHERE table_name = 'citation_contexts')"),
    );
    await withTrigger('citations', 'citations_append_only', () =>
      ctx.team.owner.query("DELETE FROM citations WHERE id NOT IN (SELECT row_id FROM audit_log WHERE table_name = 'citations')"),
    );
    const fresh = await verify(tempDir('evidesk-member-new-'));
    expect(fresh.check.ok).toBe(true);
    const seen = await verify();
    expect(seen.code).toBe(3);
    expect(seen.check.brokenAt).toMatchObject({ kind: 'truncated', seq: 34 });
    expect(seen.out).toContain(`this member's head file (the head it last saw) counts ${before.count} audit entries, the shared audit log holds 33 (the last 2 entries are gone: entries 34 to 35).`);
    // A failing check leaves the member's file as it was: the next check says the same.
    expect((await verify()).check.brokenAt).toMatchObject({ kind: 'truncated' });
  });
});
