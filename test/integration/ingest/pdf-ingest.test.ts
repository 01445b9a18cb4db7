import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices, workspaceSnapshot } from '../../support/workspace.ts';

describe('PDF ingestion', () => {
  let services: ReturnType<typeof openTestServices>;
  let docs: string;
  beforeEach(() => {
    services = openTestServices();
    docs = path.join(services.dir, 'docs');
  });
  afterEach(() => services.close());

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
    const blob = path.join(services.workspaceDir, 'blobs', 'sha256', r.sha256.slice(0, 2), r.sha256);
    expect(fs.readFileSync(blob).equals(fs.readFileSync(file))).toBe(true);
  });

  it('gives each bad file a coded error naming it, goes on with the batch, and leaves the workspace unchanged', async () => {
    const good = writeFile(docs, 'good.pdf', await makePdf(threePages()));
    await services.ingest.ingest({ paths: [good] });
    const before = workspaceSnapshot(services);

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
    expect(workspaceSnapshot(services)).toBe(before);

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
    expect(services.sources.count()).toBe(1);
    expect(services.sources.paths(id).map((p) => p.path).sort()).toEqual([a, b].sort());

    fs.writeFileSync(a, await makePdf([{ lines: ['Revised report, one page now.'] }]));
    const changed = await services.ingest.ingest({ paths: [a] });
    expect(changed.files[0]).toMatchObject({ ok: true, outcome: 'new_version' });
    const newId = changed.files[0]?.ok ? changed.files[0].sourceId : 0;
    expect(services.sources.get(newId)?.predecessor_id).toBe(id);
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
