import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/contract/errors.ts';
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
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
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

  // Each migration N: migrate to N−1, insert rows, migrate to N, assert (DESIGN.md §3).
  for (const m of MIGRATIONS) {
    it(`migration ${m.version} (${m.name}) applies over version ${m.version - 1} with data in it`, () => {
      const dir = tempDir();
      const before = openDatabase(dir, { targetVersion: m.version - 1 });
      expect(schemaVersion(before)).toBe(m.version - 1);
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
  }
});
