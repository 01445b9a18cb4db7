/**
 * Migration 13 rebuilds `sources` so its kind CHECK admits PowerPoint and Excel. Every other
 * evidence table points at sources(id), and segments cascade on delete: a rebuild with foreign keys
 * on would empty them. A schema-12 workspace must keep every row, its full-text index, its guards and
 * a chain `evidesk audit verify` passes; then .pptx and .xlsx ingest through the command line.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditService } from '../../../electron/services/audit/audit-service.ts';
import { ChainStore } from '../../../electron/services/store/audit-chain-store.ts';
import { openDatabase, schemaVersion } from '../../../electron/services/store/database.ts';
import type { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import { evidesk } from '../../support/cli.ts';
import { buildDeck, buildWorkbook } from '../../support/office-fixtures.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { tempDir } from '../../support/workspace.ts';

const at = '2026-11-20T09:00:00.000Z';
const sha = (c: string): string => c.repeat(64);

/** A schema-12 workspace: two versions of a source (the second the first's successor), paths, properties, a cited and verified answer, all chained. */
function schema12Workspace(): { dir: string; head: string; sources: unknown[] } {
  const dir = path.join(tempDir('evidesk-m13-'), 'workspace');
  const db = openDatabase(dir, { targetVersion: 12 });
  expect(schemaVersion(db)).toBe(12);
  const chain = new ChainStore(db);
  db.transaction(() => {
    const add = (table: Parameters<ChainStore['record']>[0], sql: string): void => {
      const id = Number(db.prepare(sql).run().lastInsertRowid);
      chain.record(table, id, at);
    };
    add('sources', `INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES ('${sha('a')}', 'text', 'policy.txt', 40, 'text@1', '${at}')`);
    add('sources', `INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, predecessor_id, restricted, added_at) VALUES ('${sha('b')}', 'pdf', 'policy.pdf', 90, 'pdfjs-text@1', 1, 1, '${at}')`);
    add('source_paths', `INSERT INTO source_paths (source_id, path, size, mtime_ms, first_seen_at, last_seen_at) VALUES (1, '/docs/policy.txt', 40, 1, '${at}', '${at}')`);
    add('source_properties', `INSERT INTO source_properties (source_id, authors, published, created_at) VALUES (2, '["Jane Smith"]', '2024', '${at}')`);
    db.prepare("INSERT INTO segments (source_id, ordinal, locator, line_start, line_end, text) VALUES (1, 0, '{\"line\":1}', 1, 1, 'Employees receive 14 days of annual leave.')").run();
    db.prepare("INSERT INTO segments (source_id, ordinal, locator, page, text) VALUES (2, 0, '{\"page\":1}', 1, 'Managers receive 20 days of annual leave.')").run();
    add('answers', `INSERT INTO answers (format, question, answer_text, origin, created_at) VALUES ('evidence-desk/answer@1', 'Leave?', 'Leave is 14 days [1].', 'import:leave.json', '${at}')`);
    add('citations', `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, source_id, claimed_locator, created_at) VALUES (1, 0, '1', 'Leave is 14 days.', '14 days of annual leave', 1, '{}', '${at}')`);
    add('verification_runs', `INSERT INTO verification_runs (answer_id, verifier, summary, risk_flags, created_at) VALUES (1, 'test', '{}', '[]', '${at}')`);
    add('citation_results', `INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, source_id, segment_id, start_offset, end_offset, notes) VALUES (1, 1, 'verified', 'supported', 1, 1, 1, 1, 18, 41, '[]')`);
  })();
  chain.publishHead();
  const check = new AuditService(db).check();
  expect(check).toMatchObject({ ok: true });
  const sources = db.prepare('SELECT * FROM sources ORDER BY id').all();
  db.close();
  return { dir, head: check.head ?? '', sources };
}

async function auditVerify(workspace: string): Promise<AuditCheckData> {
  const run = await evidesk(workspace, 'audit', 'verify', '--json');
  return JSON.parse(run.out) as AuditCheckData;
}

describe('migration 13: PowerPoint and Excel sources', () => {
  it('keeps every source, segment, path and result with its id, the full-text index and a valid chain', async () => {
    const { dir: ws, head, sources } = schema12Workspace();
    // The command line opens the workspace, so migrates it, then walks the chain: the same head, intact.
    expect(await auditVerify(ws)).toMatchObject({ ok: true, head });

    const db = openDatabase(ws);
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(13);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.prepare('SELECT * FROM sources ORDER BY id').all()).toEqual(sources);
      // Nothing cascaded away with the old table.
      expect(db.prepare('SELECT source_id, text FROM segments ORDER BY id').all()).toEqual([
        { source_id: 1, text: 'Employees receive 14 days of annual leave.' },
        { source_id: 2, text: 'Managers receive 20 days of annual leave.' },
      ]);
      expect(db.prepare('SELECT count(*) AS n FROM source_paths').get()).toEqual({ n: 1 });
      expect(db.prepare('SELECT count(*) AS n FROM source_properties').get()).toEqual({ n: 1 });
      expect(db.prepare("SELECT rowid FROM segments_fts WHERE segments_fts MATCH 'managers'").all()).toEqual([{ rowid: 2 }]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      // The widened CHECK: the new kinds in, anything else still out; references still enforced.
      expect(() => db.prepare(`INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, added_at) VALUES ('${sha('c')}', 'doc', 'x.doc', 1, 'm', 'now')`).run()).toThrow(/CHECK/);
      expect(() => db.prepare("INSERT INTO segments (source_id, ordinal, locator, text) VALUES (99, 0, '{}', 'orphan')").run()).toThrow(/FOREIGN KEY/);
      expect(() => db.prepare(`INSERT INTO sources (sha256, kind, file_name, byte_size, extraction_method, predecessor_id, added_at) VALUES ('${sha('d')}', 'pdf', 'y.pdf', 1, 'm', 99, 'now')`).run()).toThrow(/FOREIGN KEY/);
      const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sources'").all() as { name: string }[]).map((r) => r.name);
      // The UNIQUE(sha256) index came back with the rebuilt table (later migrations add the sort indexes).
      expect(indexes.filter((n) => n.startsWith('sqlite_autoindex_'))).toEqual(['sqlite_autoindex_sources_1']);
    } finally {
      db.close();
    }

    // New kinds through `evidesk ingest`, and the chain still verifies with them in it.
    const docs = path.join(path.dirname(ws), 'docs');
    writeFile(docs, 'review.pptx', await buildDeck());
    writeFile(docs, 'revenue.xlsx', await buildWorkbook());
    const ingested = await evidesk(ws, 'ingest', docs, '--json');
    expect(ingested.code, ingested.err).toBe(0);
    const files = (JSON.parse(ingested.out) as { files: { ok: boolean; path: string; outcome?: string }[] }).files;
    expect(files.map((f) => [path.basename(f.path), f.ok, f.outcome]).sort()).toEqual([
      ['revenue.xlsx', true, 'added'],
      ['review.pptx', true, 'added'],
    ]);
    const after = await auditVerify(ws);
    expect(after).toMatchObject({ ok: true });
    expect(after.evidenceRows).toBeGreaterThan(0);
    const reopened = openDatabase(ws);
    try {
      expect(reopened.prepare("SELECT kind FROM sources WHERE kind IN ('pptx', 'xlsx') ORDER BY kind").all()).toEqual([{ kind: 'pptx' }, { kind: 'xlsx' }]);
    } finally {
      reopened.close();
    }
  });
});
