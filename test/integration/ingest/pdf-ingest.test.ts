import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { auditCheck, ownerSql } from '../../support/engine-rows.ts';
import { sourceCount, storedState, withEngineDocs } from '../../support/engine-ingest.ts';
import { FIXTURES_DIR, makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import type { TestServices } from '../../support/workspace.ts';

/** The snapshot stored for a source: the blob file on SQLite, the chunk rows read back as a stream on PostgreSQL. */
async function snapshotBytes(opened: Opened<unknown>, sha256: string): Promise<Buffer> {
  if (!opened.database) return fs.readFileSync(path.join(opened.services.workspaceDir, 'blobs', 'sha256', sha256.slice(0, 2), sha256));
  const owner = await PgStore.connect(opened.database.ownerUrl);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of owner.snapshot(sha256)) chunks.push(chunk);
    return Buffer.concat(chunks);
  } finally {
    await owner.close();
  }
}

// On both engines (issue 13): ingest writes through the engine in use (on PostgreSQL as an admin
// member), and what is stored is read back from it.
describeEngines('PDF ingestion', (engine) => {
  let opened: Opened<undefined>;
  let services: TestServices;
  let docs: string;
  withEngineDocs(engine, (o) => ({ services, docs } = opened = o));

  it('stores one segment per page whose text items map back to exact offsets', async () => {
    const file = writeFile(docs, 'three.pdf', await makePdf(threePages()));
    const result = await services.ingest.ingest({ paths: [file] });
    const [r] = result.files;
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.sha256).toBe(execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0]);
    const page3 = await services.dispatch('sources.pageText', { id: r.sourceId, page: 3 });
    expect(page3.ok).toBe(true);
    if (!page3.ok) return;
    const { text, itemStarts } = page3.value as { text: string; itemStarts: number[] };
    const phrase = '14 days of annual leave';
    const at = text.indexOf(phrase);
    expect(at).toBeGreaterThan(0);
    expect(text.slice(at, at + phrase.length)).toBe(phrase);
    expect(itemStarts.length).toBeGreaterThanOrEqual(3);
    expect(itemStarts.every((s, i) => i === 0 || s > (itemStarts[i - 1] ?? -1))).toBe(true);
    expect(text.startsWith('Evidence Desk fixture, page 3 of 3.')).toBe(true);
    // The snapshot holds the same bytes.
    expect((await snapshotBytes(opened, r.sha256)).equals(fs.readFileSync(file))).toBe(true);
    expect((await services.evidence.sources.get(r.sourceId))?.snapshot).toBe(`blobs/sha256/${r.sha256.slice(0, 2)}/${r.sha256}`);
  });

  it('gives each bad file a coded error naming it, goes on with the batch, and leaves the workspace unchanged', async () => {
    const good = writeFile(docs, 'good.pdf', await makePdf(threePages()));
    await services.ingest.ingest({ paths: [good] });
    const before = await storedState(opened);

    const full = await makePdf(threePages(), 'to be cut');
    const truncated = writeFile(docs, 'truncated.pdf', full.subarray(0, Math.floor(full.length * 0.4)));
    const garbage = writeFile(docs, 'garbage.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 0x41)]));
    const encrypted = path.join(FIXTURES_DIR, 'encrypted-aes256.pdf');
    const notPdf = writeFile(docs, 'notes.pdf', 'These are plain text notes with a .pdf name.\n');
    const empty = writeFile(docs, 'empty.pdf', '');
    const missing = path.join(docs, 'vanished.pdf');
    const second = writeFile(docs, 'second.pdf', await makePdf([{ lines: ['A different document.'] }]));

    const result = await services.ingest.ingest({ paths: [truncated, garbage, encrypted, notPdf, empty, missing] });
    const errors = result.files.map((f) => (f.ok ? null : { file: path.basename(f.path), code: f.error.code, message: f.error.message }));
    expect(errors.map((e) => e?.code)).toEqual(['PDF_CORRUPT', 'PDF_CORRUPT', 'PDF_ENCRYPTED', 'WRONG_EXTENSION', 'FILE_EMPTY', 'FILE_MISSING']);
    for (const e of errors) expect(e?.message).toContain(e?.file);
    expect(errors[2]?.message).toMatch(/password/);
    expect(errors[3]?.message).toMatch(/not a PDF/);
    expect(await storedState(opened)).toBe(before);

    // The batch goes on past bad files.
    const mixed = await services.ingest.ingest({ paths: [truncated, second] });
    expect(mixed.files.map((f) => f.ok)).toEqual([false, true]);
  });

  it('opens an encrypted PDF with its password, and names a wrong password as such', async () => {
    const encrypted = path.join(FIXTURES_DIR, 'encrypted-aes256.pdf');
    const wrong = await services.ingest.ingest({ paths: [encrypted], password: 'not-it' });
    expect(wrong.files[0]).toMatchObject({ ok: false, error: { code: 'PDF_PASSWORD_INCORRECT' } });
    const right = await services.ingest.ingest({ paths: [encrypted], password: 'evidence' });
    expect(right.files[0]).toMatchObject({ ok: true, outcome: 'added' });
    const id = right.files[0]?.ok ? right.files[0].sourceId : 0;
    const page = await services.dispatch('sources.pageText', { id, page: 1 });
    expect(page.ok && (page.value as { text: string }).text).toContain('encrypted with the password evidence');
  });

  it('keeps one source for the same bytes at two paths, and makes a changed file a new version', async () => {
    const bytes = await makePdf(threePages());
    const a = writeFile(path.join(docs, 'a'), 'report.pdf', bytes);
    const b = writeFile(path.join(docs, 'b'), 'report-copy.pdf', bytes);
    const first = await services.ingest.ingest({ paths: [a] });
    const again = await services.ingest.ingest({ paths: [b] });
    expect(again.files[0]).toMatchObject({ ok: true, outcome: 'duplicate' });
    const id = first.files[0]?.ok ? first.files[0].sourceId : 0;
    expect(await sourceCount(services)).toBe(1);
    expect((await services.evidence.sources.paths(id)).map((p) => p.path).sort()).toEqual([a, b].sort());

    fs.writeFileSync(a, await makePdf([{ lines: ['Revised report, one page now.'] }]));
    const changed = await services.ingest.ingest({ paths: [a] });
    expect(changed.files[0]).toMatchObject({ ok: true, outcome: 'new_version' });
    const newId = changed.files[0]?.ok ? changed.files[0].sourceId : 0;
    expect((await services.evidence.sources.get(newId))?.predecessor_id).toBe(id);
    // The new version is current at the path; the old one stays current only where its bytes still are.
    expect((await services.evidence.sources.get(newId))?.current_path).toBe(a);
    expect((await services.evidence.sources.paths(id)).map((p) => [p.path, p.current])).toEqual([
      [a, 0],
      [b, 1],
    ]);
    expect(await auditCheck(opened)).toMatchObject({ ok: true });
  });

  it('stores the same bytes ingested by two batches at the same moment as one source, with both paths and one chain', async () => {
    const bytes = await makePdf(threePages());
    const files = [1, 2, 3, 4].map((n) => writeFile(path.join(docs, `copy-${n}`), 'same.pdf', bytes));
    // Four batches at once: each looks the bytes up before the others have stored them.
    const batches = await Promise.all(files.map((f) => services.ingest.ingest({ paths: [f] })));
    const results = batches.map((b) => b.files[0]);
    expect(results.every((r) => r?.ok)).toBe(true);
    const ids = new Set(results.map((r) => (r?.ok ? r.sourceId : 0)));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r?.ok && r.outcome === 'added')).toHaveLength(1);
    expect(results.filter((r) => r?.ok && r.outcome === 'duplicate')).toHaveLength(3);
    expect(await sourceCount(services)).toBe(1);
    const [id] = [...ids];
    expect((await services.evidence.sources.paths(id ?? 0)).map((p) => p.path).sort()).toEqual([...files].sort());
    expect(await services.evidence.sources.segments(id ?? 0)).toHaveLength(3);
    // One source entry, one entry per path, in one chain that verifies.
    const entries = await ownerSql<{ action: string; table_name: string | null }>(opened, 'SELECT action, table_name FROM audit_log ORDER BY id');
    expect(entries.filter((e) => e.table_name === 'sources').map((e) => e.action)).toEqual(['source.add']);
    expect(entries.filter((e) => e.table_name === 'source_paths')).toHaveLength(4);
    expect(await auditCheck(opened)).toMatchObject({ ok: true });
  });

  it('reports progress events per page', async () => {
    const file = writeFile(docs, 'three.pdf', await makePdf(threePages()));
    const seen: string[] = [];
    const off = services.events.subscribe((e) => {
      if (e.type === 'ingest.progress') seen.push(`${e.phase}${e.page !== undefined ? `:${e.page}/${e.pageCount}` : ''}`);
    });
    await services.ingest.ingest({ paths: [file] });
    off();
    expect(seen).toEqual(['hashing', 'extracting', 'extracting:1/3', 'extracting:2/3', 'extracting:3/3', 'storing', 'done']);
  });
});
