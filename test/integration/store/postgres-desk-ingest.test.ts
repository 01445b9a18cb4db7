// Adding documents from the desk on a shared workspace (issue 13): an admin's desk adds files by
// path (`sources.ingest`) and by upload (the desk's `ingest`, what a drop in browser mode reaches)
// into the shared PostgreSQL workspace; a teammate's open desk hears of each new source on its
// change feed and lists it; a reviewer's desk is refused by PostgreSQL itself, in a sentence naming
// the role, with nothing stored.
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedDesk } from '../../../electron/services/shared-desk.ts';
import { migrateWorkspace } from '../../../electron/services/store/postgres/pg-workspace-migrate.ts';
import type { AppEvent } from '../../../shared/contract/events.ts';
import { makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { closeShared, deskCall, followLive, openMemberDesk } from '../../support/shared-desks.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';

let server: TestPostgres;
let owner: pg.Client;
let admin: SharedDesk;
let reviewer: SharedDesk;
const heard: AppEvent[] = [];

const call = deskCall;

beforeAll(async () => {
  server = await startTestPostgres();
  owner = await server.owner();
  const empty = openTestServices();
  empty.close();
  await migrateWorkspace(owner, { from: empty.workspaceDir, project: { key: 'alpha', name: 'Alpha' } });
  admin = await openMemberDesk(server, owner, { name: 'carol', level: 'admin', project: 'alpha', mode: 'cli' });
  reviewer = await openMemberDesk(server, owner, { name: 'ana', level: 'reviewer', project: 'alpha', mode: 'cli' });
  await followLive(reviewer, heard);
}, 180_000);

afterAll(() => closeShared({ desks: [admin, reviewer], owner, server }));

const sourceCount = async (): Promise<number> => (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM sources')).rows[0]?.n ?? -1;

describe('adding documents from the desk on a shared workspace', () => {
  it("adds files by path as an admin; a teammate's open desk hears of them and lists them", async () => {
    const docs = path.join(tempDir('evidesk-desk-docs-'), 'docs');
    writeFile(docs, 'policy.pdf', await makePdf(threePages()));
    writeFile(docs, 'handbook.txt', 'The handbook.\n\nLeave requests go to the line manager first.\n');
    const result = await call(admin, 'sources.ingest', { paths: [docs] });
    expect(result.files.map((f) => [path.basename(f.path), f.ok && f.outcome]).sort()).toEqual([
      ['handbook.txt', 'added'],
      ['policy.pdf', 'added'],
    ]);
    const ids = result.files.map((f) => (f.ok ? f.sourceId : 0));
    // Each new source reaches the teammate's desk as a change of the sources table.
    await expect
      .poll(() => heard.filter((e) => e.type === 'shared.changed' && e.table === 'sources').map((e) => (e.type === 'shared.changed' ? e.id : 0)).sort(), { timeout: 30_000 })
      .toEqual([...ids].sort());
    expect((await call(reviewer, 'sources.list', {})).map((s) => s.fileName).sort()).toEqual(['handbook.txt', 'policy.pdf']);
    // The same text is found on the teammate's desk.
    const hits = await call(reviewer, 'search.query', { query: 'line manager' });
    expect(hits.hits.map((h) => h.fileName)).toEqual(['handbook.txt']);
    // The admin's own path is recorded for the admin only.
    const pdfId = result.files.find((f) => path.basename(f.path) === 'policy.pdf');
    const id = pdfId?.ok ? pdfId.sourceId : 0;
    expect((await call(admin, 'sources.get', { id })).knownPaths.map((p) => p.path)).toEqual([path.join(docs, 'policy.pdf')]);
    expect((await call(reviewer, 'sources.get', { id })).knownPaths).toEqual([]);
  });

  it('adds an upload (a file in the member’s inbox) through the desk’s ingest', async () => {
    const file = writeFile(path.join(admin.workspaceDir, 'inbox', 'drop-1'), 'minutes.md', '# Minutes\n\nThe board approved the budget.\n');
    const result = await admin.ingest.ingest({ paths: [file] });
    expect(result.files.map((f) => f.ok && f.outcome)).toEqual(['added']);
    await expect.poll(async () => (await call(reviewer, 'sources.list', {})).map((s) => s.fileName), { timeout: 30_000 }).toContain('minutes.md');
  });

  it("refuses a reviewer's document in PostgreSQL itself, naming the role, and stores nothing", async () => {
    const before = await sourceCount();
    const file = writeFile(tempDir('evidesk-desk-ana-'), 'ana-notes.txt', 'Notes the reviewer tries to add.\n');
    const result = await call(reviewer, 'sources.ingest', { paths: [file] });
    const [row] = result.files;
    expect(row?.ok).toBe(false);
    if (row && !row.ok) {
      expect(row.error.code).toBe('DATABASE_ROLE_REFUSED');
      expect(row.error.message).toMatch(/^The reviewer role may not add a source: only an admin adds sources to the shared workspace/);
    }
    expect(await sourceCount()).toBe(before);
  });
});
