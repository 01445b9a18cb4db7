// Migration 15 (library changes) over a workspace of the version before it.
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditService } from '../../../electron/services/audit/audit-service.ts';
import { ChainStore } from '../../../electron/services/store/audit-chain-store.ts';
import { openDatabase } from '../../../electron/services/store/database.ts';
import { LibraryChangesStore } from '../../../electron/services/store/library-changes-store.ts';
import { MIGRATIONS } from '../../../electron/services/store/migrations.ts';
import { tempDir } from '../../support/workspace.ts';

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

describe('migration 15: library changes', () => {
  it('adds an append-only, audited library_changes table and its views; older rows and their chain stay valid', () => {
    const index = MIGRATIONS.findIndex((m) => m.version === 15);
    const previous = MIGRATIONS[index - 1]?.version ?? 0;
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: previous });
    opened.push(before);
    const now = '2026-01-01T00:00:00.000Z';
    const sourceId = Number(
      before.prepare("INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES (?, 'text', 'old.txt', 12, 'm', ?)").run('a'.repeat(64), now).lastInsertRowid,
    );
    const answerId = Number(before.prepare("INSERT INTO answers (format, question, answer_text, origin, raw, created_at) VALUES ('f', 'Q?', 'A', 'import:a.json', '{}', ?)").run(now).lastInsertRowid);
    const chain = new ChainStore(before);
    chain.record('sources', sourceId, now, 'source.add');
    chain.record('answers', answerId, now, 'answer.import');
    chain.publishHead();
    expect(before.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'library_changes'").get()).toEqual({ n: 0 });
    before.close();

    const after = openDatabase(dir);
    opened.push(after);
    const changes = new LibraryChangesStore(after);
    expect(changes.hidden('source')).toEqual(new Set());
    changes.append('answer', answerId, 'rename', 'Leave answer', now);
    changes.append('answer', answerId, 'hide', null, now);
    changes.append('source', sourceId, 'hide', null, now);
    changes.append('source', sourceId, 'show', null, now);
    expect(changes.names('answer')).toEqual(new Map([[answerId, 'Leave answer']]));
    expect(changes.hidden('answer')).toEqual(new Set([answerId]));
    expect(changes.hidden('source')).toEqual(new Set());
    expect(new AuditService(after).check()).toMatchObject({ ok: true });
    // A rename needs its name, a hide none; nothing is updated or deleted.
    expect(() => after.prepare("INSERT INTO library_changes (subject, subject_id, action, value, created_at) VALUES ('answer', 1, 'rename', NULL, 'now')").run()).toThrow(/CHECK/);
    expect(() => after.prepare("INSERT INTO library_changes (subject, subject_id, action, value, created_at) VALUES ('answer', 1, 'hide', 'x', 'now')").run()).toThrow(/CHECK/);
    expect(() => after.prepare("UPDATE library_changes SET action = 'show'").run()).toThrow(/append-only/);
    expect(() => after.prepare('DELETE FROM library_changes').run()).toThrow(/append-only/);
    // Not through the store: the chain reports the row as inserted behind its back.
    after.prepare("INSERT INTO library_changes (subject, subject_id, action, value, created_at) VALUES ('answer', ?, 'show', NULL, 'now')").run(answerId);
    expect(new AuditService(after).check()).toMatchObject({ ok: false, brokenAt: { kind: 'inserted', table: 'library_changes' } });
  });
});
