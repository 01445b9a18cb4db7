// Documents dropped on the page in browser mode reach the host as bytes (POST /upload?name=…):
// streamed into the workspace's inbox under the file-size cap, ingested from there, refused with a
// named reason otherwise, and never leaving a partial file behind.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeUploadName } from '../../../electron/host/upload.ts';
import { startHost, type Host } from '../../../electron/host/server.ts';
import type { IngestResult, SourceSummary } from '../../../shared/contract/schemas.ts';
import { makePdf } from '../../support/pdf-fixtures.ts';
import { callHandler, openTestServices, tempDir } from '../../support/workspace.ts';

interface Reply {
  status: number;
  body: { ok: boolean; value?: IngestResult; error?: { code: string; message: string } };
}

function post(host: Host, name: string, body: Uint8Array | string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: host.port,
        path: `/upload?name=${encodeURIComponent(name)}`,
        method: 'POST',
        headers: { host: `127.0.0.1:${host.port}`, 'x-evidesk-token': host.token, 'content-type': 'application/octet-stream', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Reply['body'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('browser-mode uploads', () => {
  let services: ReturnType<typeof openTestServices>;
  let host: Host;
  const inbox = () => path.join(services.workspaceDir, 'inbox');
  const inboxFiles = () => (fs.existsSync(inbox()) ? (fs.readdirSync(inbox(), { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(inbox(), f)).isFile()) : []);

  beforeAll(async () => {
    services = openTestServices();
    await callHandler(services, 'workspace.updateSettings', { maxFileMb: 1 });
    host = await startHost({ services, staticDir: tempDir() });
  });
  afterAll(async () => {
    await host.close();
    services.close();
  });

  it('keeps a dropped PDF in the inbox, ingests it, and the library says it was uploaded', async () => {
    const pdf = await makePdf([{ lines: ['Uploaded evidence: the lease ends on 30 June 2025.'] }], 'Lease');
    const reply = await post(host, 'Lease 2025.pdf', pdf);
    expect(reply.body.ok).toBe(true);
    const file = reply.body.value?.files[0];
    expect(file).toMatchObject({ ok: true, outcome: 'added' });
    expect(inboxFiles().map((f) => path.basename(f))).toEqual(['Lease 2025.pdf']);
    const list = await callHandler<SourceSummary[]>(services, 'sources.list', {});
    expect(list.find((s) => s.fileName === 'Lease 2025.pdf')).toMatchObject({ uploaded: true, hasSnapshot: true });
    const found = await callHandler<{ hits: { sourceId: number }[] }>(services, 'search.query', { query: '"lease ends"' });
    expect(found.hits.map((h) => h.sourceId)).toEqual([file?.ok ? file.sourceId : -1]);
  });

  it('gives two drops of the same name their own folders', async () => {
    await post(host, 'notes.txt', 'First notes about the lease.\n');
    await post(host, 'notes.txt', 'Second notes, other words.\n');
    expect(inboxFiles().filter((f) => f.endsWith('notes.txt'))).toHaveLength(2);
  });

  it('refuses, with the reason and the file named, and leaves nothing behind', async () => {
    const before = inboxFiles();
    const tooBig = await post(host, 'scan.pdf', new Uint8Array(1024 * 1024 + 1));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(tooBig.body.error?.message).toContain('scan.pdf');
    // Chunked, so the size is only known while streaming: stopped at the cap, the partial file removed.
    const chunked = await post(host, 'big.txt', 'x'.repeat(1024 * 1024 + 10), { 'transfer-encoding': 'chunked' });
    expect(chunked.body.error).toMatchObject({ code: 'FILE_TOO_LARGE' });
    const type = await post(host, 'tool.exe', 'MZ');
    expect(type.body.error).toMatchObject({ code: 'UNSUPPORTED_TYPE' });
    expect(type.body.error?.message).toContain('tool.exe');
    const empty = await post(host, 'empty.txt', '');
    expect(empty.body.error).toMatchObject({ code: 'FILE_EMPTY' });
    // Bytes that are not what the name says: ingestion refuses them and the inbox keeps no copy.
    const fake = await post(host, 'fake.pdf', 'this is not a PDF at all');
    expect(fake.body.value?.files[0]).toMatchObject({ ok: false });
    expect(inboxFiles()).toEqual(before);
  });

  it('needs the token like every other request', async () => {
    const reply = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: host.port, path: '/upload?name=a.txt', method: 'POST', headers: { host: `127.0.0.1:${host.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('text');
    });
    expect(reply).toBe(403);
  });

  it('writes only a plain file name: path parts, control characters and leading dots go', () => {
    expect(safeUploadName('../../etc/passwd.txt')).toBe('passwd.txt');
    expect(safeUploadName('C:\\Users\\me\\memo.txt')).toBe('memo.txt');
    expect(safeUploadName('.hidden.md')).toBe('hidden.md');
    expect(safeUploadName('a\u0000b<c>.txt')).toBe('a_b_c_.txt');
    expect(safeUploadName(`${'n'.repeat(300)}.pdf`)).toHaveLength(200);
    expect(() => safeUploadName('...')).toThrow(/no usable name/);
  });
});
