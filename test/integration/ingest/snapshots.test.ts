import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../../../electron/services/create-services.ts';
import { makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices, testPlatform } from '../../support/workspace.ts';

let services: ReturnType<typeof openTestServices> | undefined;
afterEach(() => services?.close());

describe('snapshots and the bytes the viewer gets', () => {
  it('serves the original while it is unchanged, then the snapshot, and says which', async () => {
    services = openTestServices();
    const file = writeFile(path.join(services.dir, 'docs'), 'a.pdf', await makePdf(threePages()));
    const [r] = (await services.ingest.ingest({ paths: [file] })).files;
    const id = r?.ok ? r.sourceId : 0;
    expect((await services.sourceFiles.resolve(id)).origin).toBe('original');
    // Touched but the same bytes: still the original.
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later);
    expect((await services.sourceFiles.resolve(id)).origin).toBe('original');
    fs.writeFileSync(file, await makePdf([{ lines: ['Changed since.'] }]));
    const changed = await services.sourceFiles.resolve(id);
    expect(changed.origin).toBe('snapshot');
    expect(fs.readFileSync(changed.filePath).length).toBe(services.sources.get(id)?.byte_size);
    fs.rmSync(file);
    expect((await services.sourceFiles.resolve(id)).origin).toBe('snapshot');
  });

  it('a workspace setting turns snapshots off; it persists, and a missing original is then FILE_MISSING', async () => {
    services = openTestServices();
    const reply = await services.dispatch('workspace.updateSettings', { snapshots: false });
    expect(reply).toMatchObject({ ok: true, value: { snapshots: false } });
    const file = writeFile(path.join(services.dir, 'docs'), 'b.pdf', await makePdf(threePages()));
    const [r] = (await services.ingest.ingest({ paths: [file] })).files;
    const id = r?.ok ? r.sourceId : 0;
    expect(services.sources.get(id)?.snapshot).toBeNull();
    expect(fs.existsSync(path.join(services.workspaceDir, 'blobs'))).toBe(false);
    fs.rmSync(file);
    await expect(services.sourceFiles.resolve(id)).rejects.toMatchObject({ code: 'FILE_MISSING' });

    // The setting lives in the workspace: a new session (or the CLI) sees it.
    const workspaceDir = services.workspaceDir;
    services.close();
    services = Object.assign(createServices(testPlatform(), workspaceDir), { dir: '' });
    expect(await services.dispatch('workspace.settings', {})).toMatchObject({ ok: true, value: { snapshots: false, maxFileMb: 512 } });
    expect(await services.dispatch('workspace.updateSettings', { maxFileMb: 0 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
