// The audit chain in PostgreSQL (issue 13): many writers at once make one chain; an entry that does
// not follow the head is refused; tampering by the table owner, even past the append-only trigger,
// is found by the walk, at the entry or row it touched.
import { beforeAll, describe, expect, it } from 'vitest';
import { APPEND_ONLY_SQLSTATE, CHAIN_LINK_SQLSTATE } from '../../../electron/services/store/postgres/schema-evidence.ts';
import type { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';
import { appendEntries } from '../../../electron/services/store/postgres/pg-audit-chain.ts';
import { sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import { entryHash } from '../../../shared/audit/canonical.ts';

const ctx = withPgTeam();
let sourceId: number;

beforeAll(async () => {
  const doc = pgDocument('board-minutes');
  sourceId = (await ctx.team.admin.addSource(doc.src, doc.pieces())).id;
});

async function citeMany(agent: PgStore, sessionKey: string, n: number): Promise<number[]> {
  const session = await agent.openSession({ sessionKey, projectKey: 'alpha', userId: 'ana' });
  // Four at a time from one member: its pool's connections race each other too.
  const ids: number[] = [];
  for (let i = 0; i < n; i += 4) {
    const batch = Array.from({ length: Math.min(4, n - i) }, (_, k) =>
      agent.addCitation({ answerId: session.answerId, marker: `[${i + k + 1}]`, claim: `Claim ${i + k}`, quote: 'the quarterly revenue grew', sourceId, locator: { kind: 'text', paragraph: 1 } }),
    );
    ids.push(...(await Promise.all(batch)).map((c) => c.id));
  }
  return ids;
}

async function toggleTrigger(table: string, trigger: string, on: boolean): Promise<void> {
  // Only a superuser (or the owner) can switch a trigger off: exactly the insider the chain is for.
  await ctx.team.owner.query(`ALTER TABLE ${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
}

describe('the PostgreSQL audit chain', () => {
  it('stays one valid chain when two agents append at the same time', async () => {
    const second = await ctx.team.member('agent_a2', 'agent', ['alpha']);
    const [one, two] = await Promise.all([citeMany(ctx.team.agentA, 'race-1', 12), citeMany(second, 'race-2', 12)]);
    expect(new Set([...one, ...two]).size).toBe(24);
    const report = await ctx.team.auditor.verifyChain();
    expect(report.break).toBeUndefined();
    expect(report.ok).toBe(true);
    // 1 source, 2 answers, 2 sessions, 24 citations and 24 contexts: one entry each.
    expect(report.entries).toBe(1 + 2 + 2 + 24 + 24);
    const seqs = await ctx.team.owner.query<{ seq: number; id: number }>('SELECT seq, id FROM audit_log ORDER BY id');
    expect(seqs.rows.map((r) => r.seq)).toEqual(seqs.rows.map((_, i) => i + 1));
  });

  it('hashes entries inside the database exactly as shared/audit hashes them, whatever their text holds', async () => {
    // Quotes, backslashes, control characters, non-ASCII, an emoji, U+2028: each escaped (or not)
    // by to_json as by JSON.stringify, so the hash migration 11 computes is the JavaScript one.
    const texts = ['quote " and \\ backslash', 'lines\n\r\ttab \u0001\u001f\u007f', 'Zoë — naïve 😀 \u2028 end', ''];
    const now = '2026-11-25T10:00:00.000Z';
    // An admin appends and reads the log back (agents may not read it); rolled back after.
    const client = await ctx.team.admin.pool.connect();
    try {
      await client.query('BEGIN');
      const head = (await client.query<{ seq: number; hash: string }>('SELECT seq, hash FROM evidesk_audit_head()')).rows[0];
      await appendEntries(client, texts.map((t, i) => ({ action: `test.text.${i}`, payload: { t } })), now);
      const stored = (await client.query<{ seq: number; hash: string; prev_hash: string }>('SELECT seq, hash, prev_hash FROM audit_log WHERE seq > $1 ORDER BY seq', [head?.seq ?? 0])).rows;
      await client.query('ROLLBACK');
      let prevHash = head?.hash ?? '';
      expect(stored.map((r) => r.seq)).toEqual(texts.map((_, i) => (head?.seq ?? 0) + i + 1));
      texts.forEach((t, i) => {
        const want = entryHash({ seq: (head?.seq ?? 0) + i + 1, prevHash, action: `test.text.${i}`, table: null, rowId: null, rowHash: null, payload: JSON.stringify({ t }), createdAt: now }, sha256Text);
        expect(stored[i]?.prev_hash).toBe(prevHash);
        expect(stored[i]?.hash, JSON.stringify(t)).toBe(want);
        prevHash = want;
      });
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  });

  it('refuses an entry that does not follow the head or names no row', async () => {
    const client = await ctx.team.agentA.pool.connect();
    try {
      await client.query('BEGIN');
      const stale = client.query("SELECT evidesk_audit_append(1, repeat('0', 64), 'forged', '{}', 'now', repeat('a', 64), NULL, NULL, NULL)");
      await expect(stale).rejects.toMatchObject({ code: CHAIN_LINK_SQLSTATE });
      await client.query('ROLLBACK');
      // Linked to the head but naming a row that does not exist (claiming an id ahead of its writer).
      await client.query('BEGIN');
      const head = (await client.query<{ seq: number; hash: string }>('SELECT seq, hash FROM evidesk_audit_head()')).rows[0];
      const ahead = client.query("SELECT evidesk_audit_append($1, $2, 'row.append', '{}', 'now', repeat('b', 64), 'citations', 999999, repeat('c', 64))", [(head?.seq ?? 0) + 1, head?.hash]);
      await expect(ahead).rejects.toMatchObject({ code: CHAIN_LINK_SQLSTATE });
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  it("finds the owner's edit of an audit entry, made past the append-only trigger", async () => {
    const target = (await ctx.team.owner.query<{ id: number; seq: number; payload: string }>('SELECT id, seq, payload FROM audit_log WHERE seq = 3')).rows[0];
    if (!target) throw new Error('no entry 3');
    // With the trigger on, even the owner's UPDATE is refused.
    await expect(ctx.team.owner.query("UPDATE audit_log SET payload = '{\"edited\":true}' WHERE id = $1", [target.id])).rejects.toMatchObject({ code: APPEND_ONLY_SQLSTATE });
    await toggleTrigger('audit_log', 'audit_log_append_only', false);
    try {
      await ctx.team.owner.query("UPDATE audit_log SET payload = '{\"edited\":true}' WHERE id = $1", [target.id]);
      const report = await ctx.team.auditor.verifyChain();
      expect(report.ok).toBe(false);
      expect(report.break).toMatchObject({ kind: 'edited', seq: 3, entryId: target.id });
      // Put back as it was, the chain verifies again: the walk found exactly that edit.
      await ctx.team.owner.query('UPDATE audit_log SET payload = $2 WHERE id = $1', [target.id, target.payload]);
      expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
    } finally {
      await toggleTrigger('audit_log', 'audit_log_append_only', true);
    }
  });

  it("finds the owner's edit of a recorded citation and a row written around the store", async () => {
    const citation = (await ctx.team.owner.query<{ id: number; claim: string }>('SELECT id, claim FROM citations ORDER BY id LIMIT 1')).rows[0];
    if (!citation) throw new Error('no citation');
    await toggleTrigger('citations', 'citations_append_only', false);
    try {
      await ctx.team.owner.query("UPDATE citations SET claim = 'Revenue fell.' WHERE id = $1", [citation.id]);
      expect((await ctx.team.admin.verifyChain()).break).toMatchObject({ kind: 'edited', table: 'citations', rowId: citation.id });
      await ctx.team.owner.query('UPDATE citations SET claim = $2 WHERE id = $1', [citation.id, citation.claim]);
    } finally {
      await toggleTrigger('citations', 'citations_append_only', true);
    }
    // An answer inserted by the owner, outside the chain.
    const row = await ctx.team.owner.query<{ id: number }>("INSERT INTO answers (project_key, format, answer_text, origin, created_at) VALUES ('alpha', 'text', 'x', 'owner', 'now') RETURNING id");
    expect((await ctx.team.auditor.verifyChain()).break).toMatchObject({ kind: 'inserted', table: 'answers', rowId: row.rows[0]?.id });
  });
});
