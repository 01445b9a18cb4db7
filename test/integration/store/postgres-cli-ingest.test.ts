// `evidesk ingest --database URL` (issue 13): files go into the shared workspace through the
// PostgreSQL store's ingest area as the member the URL names, with the same --json shape as on a
// local workspace; the same folder again is duplicates; a reviewer's ingest is refused by
// PostgreSQL itself, naming the role, with nothing stored; a web address is refused as a row of its
// own; no local workspace is made.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../../electron/cli/main.ts';
import { DATABASE_FILE } from '../../../electron/services/store/database.ts';
import { migrateWorkspace } from '../../../electron/services/store/postgres/pg-workspace-migrate.ts';
import { grantMember } from '../../../electron/services/store/postgres/team.ts';
import type { IngestResult } from '../../../shared/contract/schemas.ts';
import { makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';

let server: TestPostgres;
let owner: pg.Client;
let adminUrl: string;
let reviewerUrl: string;

beforeAll(async () => {
  server = await startTestPostgres();
  owner = await server.owner();
  // An empty local workspace moved in: a shared workspace with no sources yet.
  const empty = openTestServices();
  empty.close();
  await migrateWorkspace(owner, { from: empty.workspaceDir, project: { key: 'alpha', name: 'Alpha' } });
  const member = async (name: string, level: 'admin' | 'reviewer', projects: string[]): Promise<string> => {
    const login = `${server.loginPrefix}${name}`;
    await grantMember(owner, { login, password: `pw-${name}`, level, projects });
    return server.urlFor(login, `pw-${name}`);
  };
  adminUrl = await member('admin', 'admin', []);
  reviewerUrl = await member('reviewer', 'reviewer', ['alpha']);
}, 180_000);

afterAll(async () => {
  await owner?.end();
  await server?.close();
});

async function cli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t) };
  const code = await runCli(argv, io, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function sourceRows(): Promise<{ file_name: string; kind: string }[]> {
  return (await owner.query<{ file_name: string; kind: string }>('SELECT file_name, kind FROM sources ORDER BY id')).rows;
}

describe('evidesk ingest --database', () => {
  it('ingests a folder into the shared workspace as an admin; the same folder again is duplicates; the chain verifies', async () => {
    const folder = tempDir('evidesk-pg-cli-ingest-');
    const docs = path.join(tempDir('evidesk-pg-cli-docs-'), 'docs');
    writeFile(docs, 'policy.pdf', await makePdf(threePages()));
    writeFile(docs, 'notes.txt', 'Shared notes.\n\nThe quarterly audit closes in March.\n');

    const first = await cli(['--workspace', folder, '--database', adminUrl, 'ingest', docs, '--json']);
    expect(first.code, first.err + first.out).toBe(0);
    const result = JSON.parse(first.out) as IngestResult;
    expect(result.files.map((f) => [path.basename(f.path), f.ok && f.outcome]).sort()).toEqual([
      ['notes.txt', 'added'],
      ['policy.pdf', 'added'],
    ]);
    expect(await sourceRows()).toHaveLength(2);
    // The stored text is the shared workspace's: search finds it there, as the same member.
    const found = await cli(['--workspace', folder, '--database', adminUrl, 'search', 'quarterly audit', '--json']);
    expect(found.code, found.err).toBe(0);
    expect((JSON.parse(found.out) as { fileName: string }[]).map((h) => h.fileName)).toEqual(['notes.txt']);

    // Through EVIDESK_DATABASE_URL as well; the same bytes again are the same sources.
    const again = await cli(['--workspace', folder, 'ingest', docs], { EVIDESK_DATABASE_URL: adminUrl });
    expect(again.code, again.err + again.out).toBe(0);
    expect(again.out).toMatch(/duplicate/);
    expect(again.out).toContain('2 of 2 files ingested.');
    expect(await sourceRows()).toHaveLength(2);

    const audit = await cli(['--workspace', folder, '--database', adminUrl, 'audit', 'verify', '--json']);
    expect(audit.code, audit.err + audit.out).toBe(0);
    expect(JSON.parse(audit.out)).toMatchObject({ ok: true });
    // Nothing was made in the local folder.
    expect(fs.existsSync(path.join(folder, DATABASE_FILE))).toBe(false);
  });

  it("refuses a reviewer's ingest in PostgreSQL itself, naming the role, and stores nothing; a web address is a row of its own", async () => {
    const before = await sourceRows();
    const docs = path.join(tempDir('evidesk-pg-cli-docs-'), 'docs');
    const file = writeFile(docs, 'reviewer-memo.txt', 'A memo the reviewer tries to add.\n');
    const run = await cli(['--workspace', tempDir('evidesk-pg-cli-ingest-'), '--database', reviewerUrl, 'ingest', file, 'https://example.invalid/page', '--json']);
    expect(run.code, run.err).toBe(1);
    const result = JSON.parse(run.out) as IngestResult & { urls: { ok: boolean; error?: { code: string } }[] };
    const [row] = result.files;
    expect(row?.ok).toBe(false);
    if (row && !row.ok) {
      expect(row.error.code).toBe('DATABASE_ROLE_REFUSED');
      expect(row.error.message).toMatch(/reviewer/);
    }
    expect(result.urls).toMatchObject([{ ok: false, error: { code: 'SHARED_DATABASE_UNSUPPORTED' } }]);
    expect(await sourceRows()).toEqual(before);
    const blobs = await owner.query("SELECT 1 FROM blobs WHERE byte_size = $1", [fs.statSync(file).size]);
    expect(blobs.rowCount).toBe(0);
  });
});
