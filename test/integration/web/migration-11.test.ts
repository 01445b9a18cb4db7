// Migration 11 (web fetch records) over a workspace of the version before it.
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditService } from '../../../electron/services/audit/audit-service.ts';
import { ChainStore } from '../../../electron/services/store/audit-chain-store.ts';
import { openDatabase } from '../../../electron/services/store/database.ts';
import { MIGRATIONS } from '../../../electron/services/store/migrations.ts';
import { SourcesStore } from '../../../electron/services/store/sources-store.ts';
import { WebFetchStore } from '../../../electron/services/store/web-fetch-store.ts';
import { tempDir } from '../../support/workspace.ts';

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

const doc = { kind: 'html' as const, method: 'm', title: 'T', pageCount: null, segments: [{ text: 'Hello world.', paragraph: 0 }], warnings: [] };

describe('migration 11: web fetch records', () => {
  it('adds an append-only, audited web_fetches table; the older rows and their chain stay valid', () => {
    const index = MIGRATIONS.findIndex((m) => m.version === 11);
    const previous = MIGRATIONS[index - 1]?.version ?? 0;
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: previous });
    opened.push(before);
    // A source as the code of that version stored it (today's store writes columns of later migrations).
    const id = Number(
      before
        .prepare("INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES (?, 'text', 'old.txt', 12, 'm', ?)")
        .run('a'.repeat(64), '2026-01-01T00:00:00.000Z').lastInsertRowid,
    );
    const chain = new ChainStore(before);
    chain.record('sources', id, '2026-01-01T00:00:00.000Z', 'source.add');
    chain.publishHead();
    expect(before.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'web_fetches'").get()).toEqual({ n: 0 });
    expect(new AuditService(before).check()).toMatchObject({ ok: true });
    before.close();

    // Migration 11 and those after it: the stores below write today's schema.
    const after = openDatabase(dir);
    opened.push(after);
    expect(after.prepare('SELECT file_name FROM sources').all()).toEqual([{ file_name: 'old.txt' }]);
    const sources = new SourcesStore(after);
    const fetches = new WebFetchStore(after, sources);
    const fetch = { url: 'https://example.org/a', finalUrl: 'https://example.org/b', redirects: [{ url: 'https://example.org/a', status: 301, location: 'https://example.org/b' }], httpStatus: 200, contentType: 'text/html', byteSize: 12, sha256: 'b'.repeat(64), fetchedAt: '2026-11-24T12:00:00.000Z', outcome: 'added' as const };
    const { sourceId, fetchId } = fetches.insertWithSource(
      { sha256: 'b'.repeat(64), fileName: 'example.org/b', byteSize: 12, path: null, stat: { size: 12, mtimeMs: 1 }, doc, snapshot: null, predecessorId: null },
      fetch,
      fetch.fetchedAt,
    );
    expect(fetches.get(fetchId)).toEqual({ id: fetchId, sourceId, ...fetch });
    expect(sources.paths(sourceId)).toEqual([]);
    expect(new AuditService(after).check()).toMatchObject({ ok: true });
    // Not through the store: the chain reports the row as inserted behind its back.
    after.prepare("INSERT INTO web_fetches (source_id, url, final_url, http_status, byte_size, sha256, fetched_at, outcome) VALUES (?, 'http://x/', 'http://x/', 200, 1, ?, 'now', 'unchanged')").run(sourceId, 'b'.repeat(64));
    expect(new AuditService(after).check()).toMatchObject({ ok: false, brokenAt: { kind: 'inserted', table: 'web_fetches' } });
    expect(() => after.prepare("UPDATE web_fetches SET url = 'http://y/'").run()).toThrow(/append-only/);
    expect(() => after.prepare("INSERT INTO web_fetches (source_id, url, final_url, http_status, byte_size, sha256, fetched_at, outcome) VALUES (?, 'file:///etc/passwd', 'http://x/', 200, 1, ?, 'now', 'added')").run(sourceId, 'b'.repeat(64))).toThrow(/CHECK/);
  });
});
