import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/contract/errors.ts';
import { AuditService } from '../../../electron/services/audit/audit-service.ts';
import { headFilePath, sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import { AUDIT_GENESIS, legacyEntryHash } from '../../../shared/audit/canonical.ts';
import { backupDatabase } from '../../../electron/services/store/backup.ts';
import { DATABASE_FILE, openDatabase, schemaVersion } from '../../../electron/services/store/database.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../../electron/services/store/migrations.ts';
import { tempDir } from '../../support/workspace.ts';

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

describe('workspace database', () => {
  it('opens with WAL, foreign keys, FULL sync and untrusted schema, at the latest version', () => {
    const db = openDatabase(tempDir());
    opened.push(db);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('trusted_schema', { simple: true })).toBe(0);
    expect(db.pragma('secure_delete', { simple: true })).toBe(1);
    expect(db.pragma('recursive_triggers', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
  });

  it('refuses at open a workspace whose rows point at rows that do not exist (foreign_key_check)', () => {
    const dir = tempDir();
    openDatabase(dir).close();
    const raw = new Database(path.join(dir, DATABASE_FILE));
    raw.pragma('foreign_keys = OFF');
    raw.prepare("INSERT INTO segments (source_id, ordinal, locator, text) VALUES (42, 0, '{}', 'orphan')").run();
    raw.close();
    let error: unknown;
    try {
      openDatabase(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('WORKSPACE_CORRUPT');
    expect((error as AppError).message).toMatch(/segments row 1 → sources/);
  });

  it('refuses at open a damaged database file (quick_check)', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.exec('CREATE TABLE filler (x TEXT) STRICT');
    const insert = db.prepare('INSERT INTO filler VALUES (?)');
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(500));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const file = path.join(dir, DATABASE_FILE);
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    // Scribble over the interior of the last page (a filler leaf): its cells no longer parse.
    bytes.fill(0xa5, bytes.length - pageSize + 8, bytes.length - 8);
    fs.writeFileSync(file, bytes);
    let error: unknown;
    try {
      openDatabase(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('WORKSPACE_CORRUPT');
  });

  it('backs up through the backup API and verifies the copy; the copy opens with every row', async () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    opened.push(db);
    db.prepare("INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES (?, 'pdf', 'kept.pdf', 10, 'm', 'now')").run('c'.repeat(64));
    const dest = path.join(tempDir(), 'backup.sqlite');
    const result = await backupDatabase(db, dest);
    expect(result).toMatchObject({ file: dest, schemaVersion: LATEST_SCHEMA_VERSION });
    expect(result.tables.sources).toBe(1);
    const copy = new Database(dest, { readonly: true });
    expect(copy.prepare('SELECT file_name FROM sources').all()).toEqual([{ file_name: 'kept.pdf' }]);
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    // An existing file is never overwritten.
    await expect(backupDatabase(db, dest)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('migration 5 makes the append-only tables refuse REPLACE and upserts over rows written before it', () => {
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: 4 });
    before.exec(`
      INSERT INTO sources (id, sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES (1, '${'b'.repeat(64)}', 'pdf', 'r.pdf', 10, 'm', 'now');
      INSERT INTO answers (id, format, answer_text, origin, created_at) VALUES (1, 'native', 'a', 'test', 'now');
      INSERT INTO citations (id, answer_id, ordinal, marker, claim, source_id, claimed_locator, created_at) VALUES (1, 1, 0, '1', 'c', 1, '{}', 'now');
      INSERT INTO review_decisions (id, citation_id, decision, created_at) VALUES (1, 1, 'accepted', 'now');
    `);
    before.close();
    // Before migration 5 a plain connection's REPLACE rewrote a decision with every trigger of migration 3 in place.
    const raw = new Database(path.join(dir, DATABASE_FILE));
    raw.exec("REPLACE INTO review_decisions (id, citation_id, decision, created_at) VALUES (1, 1, 'flagged', 'now')");
    expect(raw.prepare('SELECT decision FROM review_decisions').get()).toEqual({ decision: 'flagged' });
    raw.close();
    const after = openDatabase(dir, { targetVersion: 5 });
    opened.push(after);
    expect(after.prepare('SELECT decision FROM review_decisions').get()).toEqual({ decision: 'flagged' });
    expect(() => after.exec("REPLACE INTO review_decisions (id, citation_id, decision, created_at) VALUES (1, 1, 'rejected', 'now')")).toThrow(/append-only/);
    expect(() => after.exec("INSERT INTO citations (id, answer_id, ordinal, marker, claim, source_id, claimed_locator, created_at) VALUES (1, 1, 0, '1', 'x', 1, '{}', 'now') ON CONFLICT DO NOTHING")).toThrow(
      /append-only/,
    );
    expect(after.prepare('SELECT decision FROM review_decisions').get()).toEqual({ decision: 'flagged' });
    after.prepare("INSERT INTO review_decisions (citation_id, decision, supersedes_id, created_at) VALUES (1, 'accepted', 1, 'now')").run();
    expect(after.prepare('SELECT count(*) AS n FROM review_decisions').get()).toEqual({ n: 2 });
  });

  it('refuses a workspace written by a newer version, and leaves it untouched', () => {
    const dir = tempDir();
    const raw = new Database(path.join(dir, DATABASE_FILE));
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 5}`);
    raw.close();
    let error: unknown;
    try {
      openDatabase(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('WORKSPACE_TOO_NEW');
    const after = new Database(path.join(dir, DATABASE_FILE));
    expect(after.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION + 5);
    after.close();
  });

  it('enforces lineage in the schema: no segment without its source', () => {
    const db = openDatabase(tempDir());
    opened.push(db);
    expect(() =>
      db.prepare("INSERT INTO segments (source_id, ordinal, locator, text) VALUES (999, 0, '{}', 'x')").run(),
    ).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare("INSERT INTO segments (source_id, ordinal, locator, text) VALUES (NULL, 0, '{}', 'x')").run()).toThrow(/NOT NULL/);
    expect(() =>
      db.prepare("INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES ('xyz', 'pdf', 'a.pdf', 1, 'm', 'now')").run(),
    ).toThrow(/CHECK/);
  });

  it('migration 4 adds the parts of a quote that runs on to existing results, NULL for them, and keeps results append-only', () => {
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: 3 });
    before.exec(`
      INSERT INTO sources (id, sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES (1, '${'b'.repeat(64)}', 'pdf', 'r.pdf', 10, 'm', 'now');
      INSERT INTO segments (id, source_id, ordinal, locator, text) VALUES (1, 1, 0, '{}', 'one'), (2, 1, 1, '{}', 'two');
      INSERT INTO answers (id, format, answer_text, origin, created_at) VALUES (1, 'native', 'a', 'test', 'now');
      INSERT INTO citations (id, answer_id, ordinal, marker, claim, source_id, claimed_locator, created_at) VALUES (1, 1, 0, '1', 'c', 1, '{}', 'now');
      INSERT INTO verification_runs (id, answer_id, verifier, summary, risk_flags, created_at) VALUES (1, 1, 'v', '{}', '[]', 'now');
      INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, segment_id, start_offset, end_segment_id, end_offset, notes)
        VALUES (1, 1, 'verified', 'supported', 1, 1, 1, 0, 2, 3, '[]');
    `);
    before.close();
    const after = openDatabase(dir, { targetVersion: 4 });
    opened.push(after);
    expect(after.prepare('SELECT end_offset, first_end, last_start FROM citation_results').get()).toEqual({ end_offset: 3, first_end: null, last_start: null });
    expect(() => after.prepare('UPDATE citation_results SET first_end = 2').run()).toThrow(/append-only/);
    expect(() => after.prepare('DELETE FROM citation_results').run()).toThrow(/append-only/);
    expect(() =>
      after.prepare("INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, first_end, notes) VALUES (1, 1, 'verified', 'supported', 1, 1, -1, '[]')").run(),
    ).toThrow(/CHECK/);
  });

  it('migration 6 starts the chain over a v5 workspace: old audit rows still verify by their formula, old evidence rows get entries, the head is anchored', () => {
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: 5 });
    before.exec(`
      INSERT INTO sources (id, sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES (1, '${'b'.repeat(64)}', 'text', 'r.txt', 10, 'm', 'then');
      INSERT INTO source_paths (source_id, path, size, mtime_ms, first_seen_at, last_seen_at) VALUES (1, '/docs/r.txt', 10, 1, 'then', 'then');
      INSERT INTO segments (id, source_id, ordinal, locator, text) VALUES (1, 1, 0, '{}', 'one');
      INSERT INTO answers (id, format, answer_text, origin, created_at) VALUES (1, 'native', 'a', 'test', 'then');
      INSERT INTO citations (id, answer_id, ordinal, marker, claim, source_id, claimed_locator, created_at) VALUES (1, 1, 0, '1', 'c', 1, '{}', 'then');
      INSERT INTO verification_runs (id, answer_id, verifier, summary, risk_flags, created_at) VALUES (1, 1, 'v', '{}', '[]', 'then');
      INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, segment_id, start_offset, end_offset, notes)
        VALUES (1, 1, 'verified', 'supported', 1, 1, 1, 0, 3, '[]');
      INSERT INTO review_decisions (citation_id, decision, created_at) VALUES (1, 'accepted', 'then');
    `);
    // Two audit rows as migration 3's code wrote them.
    let prev = AUDIT_GENESIS;
    for (const [action, payload] of [['answer.import', '{"answerId":1}'], ['citation.review', '{"citationId":1,"decision":"accepted"}']] as const) {
      const hash = legacyEntryHash(prev, action, payload, 'then', sha256Text);
      before.prepare('INSERT INTO audit_log (action, payload, created_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?)').run(action, payload, 'then', prev, hash);
      prev = hash;
    }
    before.close();
    expect(fs.existsSync(headFilePath(dir))).toBe(false);

    const after = openDatabase(dir, { targetVersion: 6 });
    opened.push(after);
    const entries = after.prepare('SELECT hash_version AS v, seq, action, table_name AS t FROM audit_log ORDER BY id').all() as { v: number; seq: number | null; action: string; t: string | null }[];
    expect(entries.slice(0, 2)).toEqual([
      { v: 1, seq: null, action: 'answer.import', t: null },
      { v: 1, seq: null, action: 'citation.review', t: null },
    ]);
    // 7 evidence rows (source, path, answer, citation, run, result, decision): one entry each, numbered on.
    expect(entries.slice(2).map((e) => [e.v, e.seq, e.t])).toEqual(
      ['sources', 'source_paths', 'answers', 'citations', 'verification_runs', 'citation_results', 'review_decisions'].map((t, i) => [2, i + 3, t]),
    );
    expect(new AuditService(after).check()).toMatchObject({ ok: true, rows: 9, evidenceRows: 7, headFile: { state: 'ok', count: 9 } });

    // Opening again changes nothing: the backfill ran once, in the migration.
    after.close();
    const again = openDatabase(dir);
    opened.push(again);
    expect(again.prepare('SELECT count(*) AS n FROM audit_log').get()).toEqual({ n: 9 });
    expect(new AuditService(again).check()).toMatchObject({ ok: true, rows: 9 });
  });

  // Each migration N: migrate to N−1, insert rows, migrate to N, assert (DESIGN.md §3).
  // Versions may have gaps (numbers are handed out per branch): N−1 is the migration before N.
  MIGRATIONS.forEach((m, i) => {
    const previous = MIGRATIONS[i - 1]?.version ?? 0;
    it(`migration ${m.version} (${m.name}) applies over version ${previous} with data in it`, () => {
      const dir = tempDir();
      const before = openDatabase(dir, { targetVersion: previous });
      expect(schemaVersion(before)).toBe(previous);
      if (m.version > 1) {
        before
          .prepare("INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES (?, 'pdf', 'kept.pdf', 10, 'm', 'now')")
          .run('a'.repeat(64));
      }
      before.close();
      const after = openDatabase(dir, { targetVersion: m.version });
      opened.push(after);
      expect(schemaVersion(after)).toBe(m.version);
      if (m.version > 1) expect(after.prepare('SELECT file_name FROM sources').all()).toEqual([{ file_name: 'kept.pdf' }]);
      else expect(after.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sources'").get()).toEqual({ n: 1 });
    });
  });


  it('migration 12 adds OCR columns to segments, NULL on existing pages, with checks on what they may hold', () => {
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: 6 });
    before.exec(`
      INSERT INTO sources (id, sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES (1, '${'c'.repeat(64)}', 'pdf', 's.pdf', 10, 'm', 'now');
      INSERT INTO segments (id, source_id, ordinal, locator, page, text, no_text_layer) VALUES (1, 1, 0, '{}', 1, '', 1);
    `);
    before.close();
    const after = openDatabase(dir, { targetVersion: 12 });
    opened.push(after);
    expect(after.prepare('SELECT no_text_layer, ocr_method, ocr_confidence, ocr_boxes FROM segments').get()).toEqual({ no_text_layer: 1, ocr_method: null, ocr_confidence: null, ocr_boxes: null });
    after.prepare("UPDATE segments SET text = 'Scanned words', ocr_method = 'tesseract.js', ocr_confidence = 91.5, ocr_boxes = '[[0.1,0.1,0.2,0.12]]' WHERE id = 1").run();
    expect(after.prepare("SELECT rowid FROM segments_fts WHERE segments_fts MATCH 'scanned'").all()).toEqual([{ rowid: 1 }]);
    expect(() => after.prepare('UPDATE segments SET ocr_confidence = 101 WHERE id = 1').run()).toThrow(/CHECK/);
    expect(() => after.prepare("UPDATE segments SET ocr_boxes = 'not json' WHERE id = 1").run()).toThrow(/CHECK/);
  });
});
