/**
 * Group commit (issue 16 item 5): many small files share a transaction and a head file write, yet
 * each document is still whole or absent, a bad one fails alone and by name, and the chain that
 * `evidesk audit verify` walks is the same chain, anchored by a head file that ends on its head.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainStore } from '../../../electron/services/store/audit-chain-store.ts';
import { headFilePath, sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import { CHAIN_TABLE_NAMES } from '../../../shared/audit/canonical.ts';
import { parseHeadFile } from '../../../shared/audit/head.ts';
import type { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import type { IngestResult } from '../../../shared/contract/schemas.ts';
import { evidesk } from '../../support/cli.ts';
import { openTestServices, tempDir, type TestServices } from '../../support/workspace.ts';

let services: TestServices | undefined;
afterEach(() => {
  services?.close();
  services = undefined;
});

const FILES = 500;
const name = (i: number): string => `note-${String(i).padStart(3, '0')}.txt`;

/** FILES small notes in a new folder; note 250 is `bad` when given. */
function notes(bad?: Uint8Array): string {
  const dir = path.join(tempDir(), 'notes');
  fs.mkdirSync(dir);
  for (let i = 0; i < FILES; i++) {
    fs.writeFileSync(path.join(dir, name(i)), i === 250 && bad ? bad : `Note ${i}\nThe register keeps item ${i} of box ${i % 13}.\n`);
  }
  return dir;
}

function headFileOf(workspace: string) {
  const parsed = parseHeadFile(fs.readFileSync(headFilePath(workspace), 'utf8'), sha256Text);
  if (parsed.state !== 'ok') throw new Error(`head file ${parsed.state}`);
  return parsed.head;
}

describe('group commit of small files', () => {
  it('stores 500 notes as 500 sources whose chain `evidesk audit verify` accepts; a binary file among them is refused by name', async () => {
    // Valid UTF-8 full of control characters: refused as binary data, after the files around it were read.
    const dir = notes(new Uint8Array(64).fill(1));
    const workspace = path.join(tempDir(), 'ws');
    const ingest = await evidesk(workspace, 'ingest', dir, '--json');
    const result = JSON.parse(ingest.out) as IngestResult;

    expect(result.files).toHaveLength(FILES);
    const failed = result.files.filter((f) => !f.ok);
    expect(failed).toEqual([expect.objectContaining({ path: path.join(dir, name(250)), error: expect.objectContaining({ code: 'UNSUPPORTED_TYPE' }) })]);
    expect(failed[0]?.ok === false && failed[0].error.message).toContain(name(250));
    expect(result.files.filter((f) => f.ok && f.outcome === 'added')).toHaveLength(FILES - 1);

    const verify = await evidesk(workspace, 'audit', 'verify', '--json');
    expect(verify.code).toBe(0);
    const check = JSON.parse(verify.out) as AuditCheckData;
    expect(check.ok).toBe(true);
    // Every source and its path has its entry; the head file names the chain's last entry.
    expect(check.evidenceRows).toBe(2 * (FILES - 1));
    expect(headFileOf(workspace)).toMatchObject({ count: check.rows, hash: check.head });
  });

  it('a document whose rows fail inside its group\'s transaction fails alone, leaving nothing; its group\'s others are stored', async () => {
    const s = openTestServices();
    services = s;
    const dir = notes();
    // Real SQLite refusing one file's source row, in the middle of a group (a fault no file can cause);
    // a trigger of the database, not of this connection: the group may be written by the writer thread's.
    s.db.exec(`CREATE TRIGGER refuse_one BEFORE INSERT ON sources WHEN NEW.file_name = '${name(250)}' BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`);

    const result = await s.ingest.ingest({ paths: [dir] });

    const failed = result.files.filter((f) => !f.ok);
    expect(failed.map((f) => f.path)).toEqual([path.join(dir, name(250))]);
    expect(failed[0]?.ok === false && failed[0].error.message).toContain('refused for the test');
    expect(s.sources.count()).toBe(FILES - 1);
    // No part of it was kept: no segment, no known path, no audit entry names it.
    expect(s.db.prepare('SELECT count(*) AS n FROM source_paths WHERE path = ?').get(path.join(dir, name(250)))).toEqual({ n: 0 });
    expect(s.db.prepare("SELECT count(*) AS n FROM segments_fts WHERE segments_fts MATCH '\"item 250\"'").get()).toEqual({ n: 0 });
    expect(s.db.prepare("SELECT count(*) AS n FROM segments_fts WHERE segments_fts MATCH '\"item 251\"'").get()).toEqual({ n: 1 });
    for (const table of CHAIN_TABLE_NAMES) {
      const unrecorded = s.db.prepare(`SELECT id FROM ${table} t WHERE (SELECT count(*) FROM audit_log a WHERE a.table_name = ? AND a.row_id = t.id) <> 1`).all(table);
      expect(unrecorded, table).toEqual([]);
    }
    expect(s.audit.check()).toMatchObject({ ok: true });
    const { count, hash } = s.audit.head();
    expect(headFileOf(s.workspaceDir)).toMatchObject({ count, hash });
  });

  it('a document whose snapshot cannot be written fails alone and by name (SNAPSHOT_WRITE_FAILED); the others and their snapshots are stored', async () => {
    const s = openTestServices();
    services = s;
    const dir = notes();
    // A note whose blob folder (the first two hex digits of its hash) no other note shares; a file
    // put where that folder must go keeps its snapshot, and only its, out of the workspace.
    const shas = Array.from({ length: FILES }, (_, i) => createHash('sha256').update(fs.readFileSync(path.join(dir, name(i)))).digest('hex'));
    const bad = shas.findIndex((h, i) => i >= 100 && shas.filter((o) => o.slice(0, 2) === h.slice(0, 2)).length === 1);
    const blobRoot = path.join(s.workspaceDir, 'blobs', 'sha256');
    fs.mkdirSync(blobRoot, { recursive: true });
    fs.writeFileSync(path.join(blobRoot, shas[bad]?.slice(0, 2) ?? ''), 'not a folder');

    const result = await s.ingest.ingest({ paths: [dir] });

    const failed = result.files.filter((f) => !f.ok);
    expect(failed.map((f) => f.path)).toEqual([path.join(dir, name(bad))]);
    expect(failed[0]?.ok === false && failed[0].error).toMatchObject({ code: 'SNAPSHOT_WRITE_FAILED', message: expect.stringContaining(name(bad)) });
    expect(s.sources.count()).toBe(FILES - 1);
    expect(s.sources.findBySha(shas[bad] ?? '')).toBeUndefined();
    // Every stored source's snapshot is at its name with its bytes; no temporary file is left.
    for (const row of s.db.prepare('SELECT sha256, snapshot FROM sources').all() as { sha256: string; snapshot: string }[]) {
      expect(createHash('sha256').update(fs.readFileSync(path.join(s.workspaceDir, row.snapshot))).digest('hex')).toBe(row.sha256);
    }
    expect((fs.readdirSync(blobRoot, { recursive: true }) as string[]).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(s.audit.check()).toMatchObject({ ok: true });
    await s.ingest.close();
  });

  it('the head file ends on the newest head when a synchronous publish lands while an asynchronous one is being written', async () => {
    const s = openTestServices();
    services = s;
    const chain = new ChainStore(s.db);
    const now = new Date().toISOString();
    s.db.transaction(() => chain.append({ action: 'test.first', payload: { n: 1 } }, now))();
    const writing = chain.publishHeadAsync();
    // Before the asynchronous write has landed: a longer chain, published synchronously.
    s.db.transaction(() => chain.append({ action: 'test.second', payload: { n: 2 } }, now))();
    chain.publishHead();
    await writing;

    const { count, hash } = chain.head();
    expect(count).toBe(2);
    expect(headFileOf(s.workspaceDir)).toMatchObject({ count, hash });
    expect(s.audit.check()).toMatchObject({ ok: true });
  });
});
