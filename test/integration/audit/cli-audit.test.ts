/**
 * Done-when 1: each kind of tampering with a real workspace, done through a separate connection
 * that drops the guards, is caught by the real `evidesk audit verify` with the right kind.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import { generateKeyPairSync } from 'node:crypto';
import { sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import { publicKeyText, signText } from '../../../electron/services/store/audit-key.ts';
import { HEAD_FILE, headFileText, headMessage } from '../../../shared/audit/head.ts';
import { chainedWorkspace, copyWorkspace, recomputeFrom, tamperer, type RawEntry } from '../../support/audit-workspace.ts';
import { evidesk } from '../../support/cli.ts';

async function auditVerify(workspace: string): Promise<{ code: number; check: AuditCheckData; text: string }> {
  const json = await evidesk(workspace, 'audit', 'verify', '--json');
  const text = await evidesk(workspace, 'audit', 'verify');
  expect(text.code).toBe(json.code);
  return { code: json.code, check: JSON.parse(json.out) as AuditCheckData, text: text.out };
}

function entries(db: Database.Database): RawEntry[] {
  return db.prepare('SELECT * FROM audit_log ORDER BY id').all() as RawEntry[];
}

describe('evidesk audit verify', () => {
  let built: string;
  beforeAll(async () => {
    built = await chainedWorkspace();
  });

  it('says the untouched record is intact (exit 0) and covers every evidence row', async () => {
    const ws = copyWorkspace(built);
    const { code, check, text } = await auditVerify(ws);
    expect(code).toBe(0);
    expect(check).toMatchObject({ ok: true, headFile: { state: 'ok', count: check.rows, hash: check.head } });
    // Signed with the workspace's own Ed25519 key, kept beside the database for its owner only.
    expect(check.headFile?.publicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(fs.statSync(path.join(ws, 'audit-key.pem')).mode & 0o777).toBe(0o600);
    // 2 sources + the policy PDF's properties + 2 paths + answer + unknown source + 3 citations + run + 3 results
    // + 2 decisions + the closest passage recorded for the quote that was not found.
    expect(check.evidenceRows).toBe(17);
    expect(text).toMatch(/audit chain is intact/);
  });

  it('an edited evidence row (a decision turned from accepted to rejected): edited, naming the row', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const decision = db.prepare("SELECT id FROM review_decisions WHERE decision = 'accepted'").get() as { id: number };
    db.prepare("UPDATE review_decisions SET decision = 'rejected' WHERE id = ?").run(decision.id);
    db.close();
    const { code, check, text } = await auditVerify(ws);
    expect(code).toBe(3);
    expect(check.brokenAt).toMatchObject({ kind: 'edited', table: 'review_decisions', rowId: decision.id });
    expect(check.brokenAt?.reason).toMatch(/Review decision \d+ was changed after it was recorded/);
    expect(text).toMatch(/broken \(edited\)/);
  });

  it('a REPLACE of a citation result (not_found → verified) on an outsider connection: edited', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const r = db.prepare("SELECT id FROM citation_results WHERE status = 'not_found'").get() as { id: number };
    db.prepare("UPDATE citation_results SET status = 'verified', verdict = 'supported', score = 1.0 WHERE id = ?").run(r.id);
    db.close();
    const { check } = await auditVerify(ws);
    expect(check.brokenAt).toMatchObject({ kind: 'edited', table: 'citation_results', rowId: r.id });
  });

  it('a restriction lifted outside the app (its text could then reach a model): edited, naming the source', async () => {
    const ws = copyWorkspace(built);
    const restricted = await evidesk(ws, 'restrict', 'onboarding-notes.txt');
    expect(restricted.code).toBe(0);
    expect((await auditVerify(ws)).code).toBe(0);
    const db = tamperer(ws);
    const src = db.prepare("SELECT id FROM sources WHERE file_name = 'onboarding-notes.txt'").get() as { id: number };
    db.prepare('UPDATE sources SET restricted = 0 WHERE id = ?').run(src.id);
    db.close();
    const { code, check } = await auditVerify(ws);
    expect(code).toBe(3);
    expect(check.brokenAt).toMatchObject({ kind: 'edited', table: 'sources', rowId: src.id });
    expect(check.brokenAt?.reason).toMatch(/restriction was lifted outside Evidence Desk/);
  });

  it('an edited audit entry: edited, naming the entry', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const target = entries(db).find((e) => e.action === 'citation.review');
    db.prepare("UPDATE audit_log SET payload = json_set(payload, '$.decision', 'flagged') WHERE id = ?").run(target?.id);
    db.close();
    const { code, check } = await auditVerify(ws);
    expect(code).toBe(3);
    expect(check.brokenAt).toMatchObject({ kind: 'edited', id: target?.id, seq: target?.seq });
  });

  it('a deleted audit entry: removed, at the gap', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const all = entries(db);
    const gone = all[5];
    db.prepare('DELETE FROM audit_log WHERE id = ?').run(gone?.id);
    db.close();
    const { check } = await auditVerify(ws);
    expect(check.brokenAt).toMatchObject({ kind: 'removed', id: all[6]?.id, seq: 6 });
    expect(check.brokenAt?.reason).toMatch(/entry 6 is missing/);
  });

  it('a deleted evidence row: removed, naming it', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const d = db.prepare("SELECT id FROM review_decisions WHERE decision = 'rejected'").get() as { id: number };
    db.prepare('DELETE FROM review_decisions WHERE id = ?').run(d.id);
    db.close();
    const { check } = await auditVerify(ws);
    expect(check.brokenAt).toMatchObject({ kind: 'removed', table: 'review_decisions', rowId: d.id });
  });

  it('an inserted audit entry that does not link: inserted', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const all = entries(db);
    const last = all[all.length - 1];
    db.prepare("INSERT INTO audit_log (action, payload, created_at, prev_hash, hash, hash_version, seq) VALUES ('citation.review', '{}', 'now', ?, ?, 2, ?)").run(
      'f'.repeat(64),
      'e'.repeat(64),
      (last?.seq ?? 0) + 1,
    );
    db.close();
    const { check } = await auditVerify(ws);
    expect(check.brokenAt).toMatchObject({ kind: 'inserted', seq: all.length + 1 });
  });

  it('an inserted evidence row with no entry (a forged decision): inserted', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const c = db.prepare('SELECT id FROM citations ORDER BY id LIMIT 1').get() as { id: number };
    const r = db.prepare("INSERT INTO review_decisions (citation_id, decision, created_at) VALUES (?, 'rejected', 'now')").run(c.id);
    db.close();
    const { check } = await auditVerify(ws);
    expect(check.brokenAt).toMatchObject({ kind: 'inserted', table: 'review_decisions', rowId: Number(r.lastInsertRowid) });
  });

  it('an entry added at the end with correct hashes but not in the head file: unanchored', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const all = entries(db);
    const last = all[all.length - 1];
    db.prepare("INSERT INTO audit_log (action, payload, created_at, prev_hash, hash, hash_version, seq) VALUES ('answer.verify', '{}', 'now', ?, ?, 2, ?)").run(
      last?.hash,
      'd'.repeat(64),
      (last?.seq ?? 0) + 1,
    );
    recomputeFrom(db, (last?.id ?? 0) + 1);
    db.close();
    const { check } = await auditVerify(ws);
    expect(check.brokenAt).toMatchObject({ kind: 'unanchored', seq: all.length + 1 });
    expect(check.brokenAt?.reason).toMatch(/follows the head the file anchors/);
  });

  it('two entries swapped (reordered): reordered', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const all = entries(db);
    const [a, b] = [all[3], all[4]];
    const set = db.prepare('UPDATE audit_log SET action = ?, payload = ?, created_at = ?, prev_hash = ?, hash = ?, seq = ?, table_name = ?, row_id = ?, row_hash = ? WHERE id = ?');
    const put = (e: RawEntry, id: number, seq: number, hash: string, table: string | null) => set.run(e.action, e.payload, e.created_at, e.prev_hash, hash, seq, table, e.row_id, e.row_hash, id);
    if (!a || !b) throw new Error('too few entries');
    // Through a free value first: seq, hash and (table, row) are unique.
    put(a, a.id, 1000, 'tmp', null);
    put(a, b.id, a.seq, a.hash, a.table_name);
    put(b, a.id, b.seq, b.hash, b.table_name);
    db.close();
    const { check } = await auditVerify(ws);
    expect(check.brokenAt).toMatchObject({ kind: 'reordered', id: a.id, seq: a.seq });
  });

  it('the last entry deleted: truncated', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const all = entries(db);
    db.prepare('DELETE FROM audit_log WHERE id = ?').run(all[all.length - 1]?.id);
    db.close();
    const { code, check, text } = await auditVerify(ws);
    expect(code).toBe(3);
    expect(check.brokenAt).toMatchObject({ kind: 'truncated', seq: all.length });
    expect(text).toMatch(/truncated/);
  });

  it('the last three entries and their rows deleted: truncated', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const all = entries(db);
    for (const e of all.slice(-3)) {
      db.prepare('DELETE FROM audit_log WHERE id = ?').run(e.id);
      if (e.table_name) db.prepare(`DELETE FROM ${e.table_name} WHERE id = ?`).run(e.row_id);
    }
    db.close();
    const { check } = await auditVerify(ws);
    expect(check.brokenAt).toMatchObject({ kind: 'truncated' });
    expect(check.brokenAt?.reason).toMatch(/the last 3 entries are gone/);
  });

  it('a rewritten tail (a decision edited and every hash after it recomputed): rewritten_tail', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const d = db.prepare("SELECT id FROM review_decisions WHERE decision = 'accepted'").get() as { id: number };
    db.prepare("UPDATE review_decisions SET decision = 'rejected' WHERE id = ?").run(d.id);
    const entry = db.prepare("SELECT id FROM audit_log WHERE table_name = 'review_decisions' AND row_id = ?").get(d.id) as { id: number };
    recomputeFrom(db, entry.id);
    db.close();
    const { code, check, text } = await auditVerify(ws);
    expect(code).toBe(3);
    expect(check.brokenAt).toMatchObject({ kind: 'rewritten_tail' });
    expect(text).toMatch(/rewritten tail/);
  });

  it('a changed head file: head_changed; a deleted one: head_missing', async () => {
    const ws = copyWorkspace(built);
    const file = path.join(ws, HEAD_FILE);
    const head = JSON.parse(fs.readFileSync(file, 'utf8')) as { count: number };
    fs.writeFileSync(file, JSON.stringify({ ...head, count: head.count - 1 }));
    const changed = await auditVerify(ws);
    expect(changed.code).toBe(3);
    expect(changed.check.brokenAt).toMatchObject({ kind: 'head_changed' });
    expect(changed.check.headFile).toMatchObject({ state: 'changed' });
    fs.rmSync(file);
    const missing = await auditVerify(ws);
    expect(missing.check.brokenAt).toMatchObject({ kind: 'head_missing' });
    expect(missing.text).toMatch(/head file missing/);
  });

  it('a head file rewritten with a correct check hash (a rewritten tail covered up) but without the workspace key: head_changed', async () => {
    const ws = copyWorkspace(built);
    const db = tamperer(ws);
    const d = db.prepare("SELECT id FROM review_decisions WHERE decision = 'accepted'").get() as { id: number };
    db.prepare("UPDATE review_decisions SET decision = 'rejected' WHERE id = ?").run(d.id);
    const entry = db.prepare("SELECT id FROM audit_log WHERE table_name = 'review_decisions' AND row_id = ?").get(d.id) as { id: number };
    recomputeFrom(db, entry.id);
    const last = db.prepare('SELECT seq, hash FROM audit_log ORDER BY id DESC LIMIT 1').get() as { seq: number; hash: string };
    db.close();
    const head = { count: last.seq, hash: last.hash, at: new Date().toISOString() };
    // Unsigned, then signed with a key of the tamperer's own: neither is the workspace's.
    fs.writeFileSync(path.join(ws, HEAD_FILE), headFileText(head, sha256Text));
    const unsigned = await auditVerify(ws);
    expect(unsigned.check.brokenAt).toMatchObject({ kind: 'head_changed' });
    expect(unsigned.check.brokenAt?.reason).toMatch(/not signed with the workspace key/);
    const { privateKey } = generateKeyPairSync('ed25519');
    fs.writeFileSync(path.join(ws, HEAD_FILE), headFileText(head, sha256Text, { publicKey: publicKeyText(privateKey), signature: signText(privateKey, headMessage(head)) }));
    const forged = await auditVerify(ws);
    expect(forged.code).toBe(3);
    expect(forged.check.brokenAt).toMatchObject({ kind: 'head_changed' });
    expect(forged.check.brokenAt?.reason).toMatch(/signature does not verify with the workspace key/);
  });

  it('evidesk verify --json carries the audit head', async () => {
    const ws = copyWorkspace(built);
    const answer = path.join(path.dirname(ws), 'a.json');
    fs.writeFileSync(
      answer,
      JSON.stringify({ format: 'evidence-desk/answer@1', question: 'q', answer: 'x [1]', citations: [{ marker: '1', claim: 'x', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' } }] }),
    );
    const before = await auditVerify(ws);
    const out = await evidesk(ws, 'verify', answer, '--json');
    const parsed = JSON.parse(out.out) as { auditHead: { count: number; hash: string; at: string } };
    expect(parsed.auditHead).toMatchObject({ count: before.check.rows, hash: before.check.head, publicKey: before.check.headFile?.publicKey });
    const saved = JSON.parse((await evidesk(ws, 'verify', answer, '--json', '--save')).out) as { auditHead: { count: number; hash: string } };
    expect(saved.auditHead.count).toBeGreaterThan(before.check.rows);
    const after = await auditVerify(ws);
    expect(after.check).toMatchObject({ ok: true, rows: saved.auditHead.count, head: saved.auditHead.hash });
  });
});
