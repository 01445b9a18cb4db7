/**
 * Migration 8 rebuilds review_decisions (a new CHECK, reviewer and undoes_id). A workspace made at
 * schema 6, with decisions recorded in its audit chain, must keep its ids, its append-only guards
 * and a chain that `evidesk audit verify` passes; the trail then goes on through `evidesk review`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChainStore } from '../../../electron/services/store/audit-chain-store.ts';
import { openDatabase, schemaVersion } from '../../../electron/services/store/database.ts';
import { AuditService } from '../../../electron/services/audit/audit-service.ts';
import { canonicalJson } from '../../../shared/audit/canonical.ts';
import type { AuditCheckData, ReviewData } from '../../../shared/contract/answer-schemas.ts';
import { tamperer, copyWorkspace } from '../../support/audit-workspace.ts';
import { evidesk } from '../../support/cli.ts';
import { tempDir } from '../../support/workspace.ts';

const SUMMARY = JSON.stringify({
  total: 2,
  byStatus: { verified: 1, verified_elsewhere: 0, partial: 0, not_found: 1, source_unknown: 0, no_quote: 0 },
  byVerdict: { supported: 1, weak: 0, contradicted: 0, not_found: 1 },
  coverage: 0.5,
  unsupportedRate: 0.5,
});
const sha256 = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');

/** A review row's hash as schema 6 wrote it: the six columns it had, nothing else. */
function schema6Hash(row: Record<string, unknown>): string {
  const picked = Object.fromEntries(['id', 'citation_id', 'decision', 'note', 'supersedes_id', 'created_at'].map((c) => [c, row[c] ?? null]));
  return sha256(canonicalJson({ row: picked, table: 'review_decisions' }));
}

/** A schema-6 workspace: one answer with two citations (one verified, one not found), three decisions, all chained. */
function schema6Workspace(): { dir: string; head: string } {
  const dir = path.join(tempDir('evidesk-m7-'), 'workspace');
  const db = openDatabase(dir, { targetVersion: 6 });
  expect(schemaVersion(db)).toBe(6);
  const chain = new ChainStore(db);
  const at = '2026-11-20T09:00:00.000Z';
  db.transaction(() => {
    const add = (table: Parameters<ChainStore['record']>[0], sql: string) => {
      const id = Number(db.prepare(sql).run().lastInsertRowid);
      chain.record(table, id, at);
    };
    add('sources', `INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES ('${'c'.repeat(64)}', 'text', 'policy.txt', 40, 'text@1', '${at}')`);
    db.prepare("INSERT INTO segments (source_id, ordinal, locator, text) VALUES (1, 0, '{\"line\":1}', 'Employees receive 14 days of annual leave.')").run();
    add('answers', `INSERT INTO answers (format, question, answer_text, origin, created_at) VALUES ('evidence-desk/answer@1', 'Leave?', 'Leave is 14 days [1], or 20 [2].', 'import:leave.json', '${at}')`);
    add('citations', `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, source_id, claimed_locator, created_at) VALUES (1, 0, '1', 'Leave is 14 days.', '14 days of annual leave', 1, '{}', '${at}')`);
    add('citations', `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, source_id, claimed_locator, created_at) VALUES (1, 1, '2', 'Leave is 20 days.', '20 days of leave', 1, '{}', '${at}')`);
    add('verification_runs', `INSERT INTO verification_runs (answer_id, verifier, summary, risk_flags, created_at) VALUES (1, 'test', '${SUMMARY}', '[]', '${at}')`);
    add('citation_results', `INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, source_id, segment_id, start_offset, end_offset, notes) VALUES (1, 1, 'verified', 'supported', 1, 1, 1, 1, 18, 41, '[]')`);
    add('citation_results', `INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, source_id, notes) VALUES (1, 2, 'not_found', 'not_found', 0.2, 0.9, 1, '[]')`);
    add('review_decisions', `INSERT INTO review_decisions (citation_id, decision, created_at) VALUES (1, 'flagged', '${at}')`);
    add('review_decisions', `INSERT INTO review_decisions (citation_id, decision, note, supersedes_id, created_at) VALUES (1, 'accepted', 'Checked.', 1, '${at}')`);
    add('review_decisions', `INSERT INTO review_decisions (citation_id, decision, note, created_at) VALUES (2, 'rejected', 'Not in the policy.', '${at}')`);
  })();
  chain.publishHead();
  // The entries hold the hashes schema 6 gave its rows.
  const recorded = db.prepare("SELECT row_id, row_hash FROM audit_log WHERE table_name = 'review_decisions' ORDER BY row_id").all() as { row_id: number; row_hash: string }[];
  const rows = db.prepare('SELECT * FROM review_decisions ORDER BY id').all() as Record<string, unknown>[];
  expect(recorded.map((r) => r.row_hash)).toEqual(rows.map(schema6Hash));
  const check = new AuditService(db).check();
  expect(check).toMatchObject({ ok: true, evidenceRows: 10 });
  db.close();
  return { dir, head: check.head ?? '' };
}

async function auditVerify(workspace: string): Promise<AuditCheckData> {
  const run = await evidesk(workspace, 'audit', 'verify', '--json');
  return JSON.parse(run.out) as AuditCheckData;
}

describe('migration 8: the review trail over a schema-6 workspace', () => {
  it('keeps every decision and its id, the guards and a valid chain; new rows with names and undos verify too', async () => {
    const { dir: ws, head } = schema6Workspace();
    // The command line opens the workspace, so migrates it, then walks the chain: the same head, intact.
    const migrated = await auditVerify(ws);
    expect(migrated).toMatchObject({ ok: true, evidenceRows: 10, head });

    const db = openDatabase(ws);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(8);
    expect(db.prepare('SELECT id, citation_id, decision, note, supersedes_id, reviewer, undoes_id FROM review_decisions ORDER BY id').all()).toEqual([
      { id: 1, citation_id: 1, decision: 'flagged', note: null, supersedes_id: null, reviewer: null, undoes_id: null },
      { id: 2, citation_id: 1, decision: 'accepted', note: 'Checked.', supersedes_id: 1, reviewer: null, undoes_id: null },
      { id: 3, citation_id: 2, decision: 'rejected', note: 'Not in the policy.', supersedes_id: null, reviewer: null, undoes_id: null },
    ]);
    const triggers = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'review_decisions' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    expect(triggers).toEqual(['review_decisions_no_delete', 'review_decisions_no_replace', 'review_decisions_no_update']);
    expect(() => db.prepare("UPDATE review_decisions SET decision = 'cleared' WHERE id = 1").run()).toThrow(/append-only/);
    expect(() => db.prepare("REPLACE INTO review_decisions (id, citation_id, decision, created_at) VALUES (1, 1, 'cleared', 'x')").run()).toThrow(/append-only/);
    expect(() => db.prepare("INSERT INTO review_decisions (citation_id, decision, created_at) VALUES (1, 'maybe', 'x')").run()).toThrow(/CHECK/);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();

    expect(await auditVerify(ws)).toMatchObject({ ok: true, evidenceRows: 10, head });

    // The trail goes on through the command line: by answer file name and marker.
    const refused = await evidesk(ws, 'review', 'leave.json', '2', 'accept', '--json');
    expect(refused.code, refused.out).toBe(3);
    expect(JSON.parse(refused.out)).toMatchObject({ ok: false, error: { code: 'REVIEW_NOTE_REQUIRED' } });
    const accepted = await evidesk(ws, 'review', 'leave.json', '2', 'accept', '--note', 'HR confirmed 20 days for managers.', '--reviewer', 'Ann Analyst', '--json');
    expect(accepted.code).toBe(0);
    expect(JSON.parse(accepted.out) as ReviewData).toMatchObject({ decision: 'accepted', note: 'HR confirmed 20 days for managers.', reviewer: 'Ann Analyst', supersedesId: 3 });
    const cleared = await evidesk(ws, 'review', '1', '[1]', 'clear');
    expect(cleared.code).toBe(0);
    expect(cleared.out).toMatch(/^\[1\] of answer 1: \S+ {2}cleared by Ann Analyst$/);
    const undone = await evidesk(ws, 'review', '1', '1', 'undo', '--reviewer', 'Bo Boss', '--json');
    expect(JSON.parse(undone.out) as ReviewData).toMatchObject({ decision: 'accepted', note: 'Checked.', reviewer: 'Bo Boss', undoesId: 5 });
    const trail = await evidesk(ws, 'review', '1', '1');
    expect(trail.out.split('\n').map((l) => l.replace(/^\S+ {2}/, ''))).toEqual(['flagged', 'accepted: Checked.', 'cleared by Ann Analyst', 'undo → accepted by Bo Boss: Checked.']);
    expect((await evidesk(ws, 'review', '1', '9', 'flag')).err).toMatch(/no citation marked \[9\] \(its markers: \[1\], \[2\]\)/);
    expect((await evidesk(ws, 'review', '1', '1', 'approve')).code).toBe(2);

    const after = await auditVerify(ws);
    expect(after).toMatchObject({ ok: true, evidenceRows: 13 });

    // The new columns are covered: a name removed from a new row, or added to an old one, is caught.
    for (const [sql, id] of [
      ["UPDATE review_decisions SET reviewer = NULL WHERE id = 4", 4],
      ["UPDATE review_decisions SET reviewer = 'Mallory' WHERE id = 1", 1],
      ['UPDATE review_decisions SET undoes_id = NULL WHERE id = 6', 6],
    ] as const) {
      const copy = copyWorkspace(ws);
      const raw = tamperer(copy);
      raw.prepare(sql).run();
      raw.close();
      expect((await auditVerify(copy)).brokenAt, sql).toMatchObject({ kind: 'edited', table: 'review_decisions', rowId: id });
    }
  });
});
