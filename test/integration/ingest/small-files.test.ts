/**
 * A folder of small files (issue 16 item 5): plain text up to 64 KiB is extracted in the app's
 * process, snapshots are flushed together before their group's commit, and many files share a
 * transaction. Every file is stored whole with its snapshot on disk, the chain verifies and the
 * head file names the chain's head at the end; the in-process extraction equals the child's.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractedDocument } from '../../../electron/services/ingest/extracted.ts';
import { extractInPool, IN_PROCESS_TEXT_BYTES } from '../../../electron/services/ingest/pooled-extract.ts';
import { WorkerPool } from '../../../electron/services/ingest/worker-pool.ts';
import { headFilePath, sha256Text } from '../../../electron/services/store/audit-head-file.ts';
import { parseHeadFile } from '../../../shared/audit/head.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

let services: TestServices | undefined;
const pools: WorkerPool[] = [];
afterEach(async () => {
  services?.close();
  services = undefined;
  for (const p of pools.splice(0)) await p.close();
});

const FILES = 300;

function noteText(i: number): string {
  return `Note ${i}\nThe ledger keeps entry ${i} for the quarter.\n\nFiled under box ${i % 17}.\n`;
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('a folder of small files', () => {
  it('stores 300 small notes whole, with their snapshots on disk, and the chain verifies', async () => {
    const s = openTestServices();
    services = s;
    const dir = path.join(s.dir, 'notes');
    fs.mkdirSync(dir);
    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(dir, `note-${String(i).padStart(3, '0')}.txt`), noteText(i));
    // Beside them: a Markdown note and a text file over the in-process cap (both read in a child),
    // the same bytes twice, and an empty file (refused; the batch goes on).
    fs.writeFileSync(path.join(dir, 'readme.md'), '# Box index\n\nThe boxes are numbered from zero.\n');
    fs.writeFileSync(path.join(dir, 'big.txt'), `${'The register runs on for pages. '.repeat(Math.ceil((IN_PROCESS_TEXT_BYTES + 100) / 32))}\n`);
    fs.writeFileSync(path.join(dir, 'copy-of-note-7.txt'), noteText(7));
    fs.writeFileSync(path.join(dir, 'empty.txt'), '');

    const result = await s.ingest.ingest({ paths: [dir] });

    expect(result.files).toHaveLength(FILES + 4);
    const failed = result.files.filter((f) => !f.ok);
    expect(failed).toEqual([expect.objectContaining({ path: path.join(dir, 'empty.txt'), error: expect.objectContaining({ code: 'FILE_EMPTY' }) })]);
    const outcomes = result.files.flatMap((f) => (f.ok ? [f.outcome] : []));
    expect(outcomes.filter((o) => o === 'added')).toHaveLength(FILES + 2);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(1);
    expect(s.sources.count()).toBe(FILES + 2);

    // Each source names a snapshot holding exactly its bytes; no temporary file is left behind.
    for (const f of result.files) {
      if (!f.ok) continue;
      const row = s.sources.get(f.sourceId);
      const blob = fs.readFileSync(path.join(s.workspaceDir, row?.snapshot ?? 'none'));
      expect(createHash('sha256').update(blob).digest('hex')).toBe(row?.sha256);
    }
    expect(filesUnder(path.join(s.workspaceDir, 'blobs')).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // Text, Markdown and the large file are all searchable; the chain verifies and is anchored.
    const hits = await callHandler<{ hits: { fileName: string }[] }>(s, 'search.query', { query: '"entry 299"' });
    expect(hits.hits.map((h) => h.fileName)).toEqual(['note-299.txt']);
    expect((await callHandler<{ hits: unknown[] }>(s, 'search.query', { query: 'numbered' })).hits).toHaveLength(1);
    expect((await callHandler<{ hits: unknown[] }>(s, 'search.query', { query: 'register' })).hits.length).toBeGreaterThan(0);
    expect(s.audit.check()).toMatchObject({ ok: true });
    const head = parseHeadFile(fs.readFileSync(headFilePath(s.workspaceDir), 'utf8'), sha256Text);
    const { count, hash } = s.audit.head();
    expect(head.state === 'ok' ? head.head : head).toMatchObject({ count, hash });
  });

  it('extracts a small text file in process exactly as an extraction child does', async () => {
    const pool = new WorkerPool({ size: 1 });
    pools.push(pool);
    const bytes = new TextEncoder().encode('Héllo\r\nsecond line\n\n\nThird paragraph\twith a tab.\n');
    const inProcess = await extractInPool(pool, 'text', bytes, { fileName: 'a.txt' });
    const inChild = await pool.run<ExtractedDocument>({ op: 'extract', kind: 'text', bytes, fileName: 'a.txt' });
    expect(inProcess).toEqual(inChild);
    expect(inProcess.segments.map((seg) => seg.text)).toEqual(['Héllo\nsecond line', 'Third paragraph\twith a tab.']);
  });
});
