/** openStore chooses the engine (issue 13): the folder's SQLite database, or a postgres:// URL as the member it names. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/services/store/open-store.ts';
import { migratePostgres } from '../../../electron/services/store/postgres/migrate.ts';
import { grantInProject } from '../../../electron/services/store/postgres/team.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { tempDir } from '../../support/workspace.ts';

let server: TestPostgres;
let login: string;
beforeAll(async () => {
  server = await startTestPostgres();
  login = `${server.loginPrefix}auditor`;
  const owner = await server.owner();
  try {
    await migratePostgres(owner);
    await grantInProject(owner, { login, level: 'auditor', password: 'pw-auditor' });
  } finally {
    await owner.end();
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('openStore', () => {
  it('opens the workspace folder on SQLite when no database is named', async () => {
    const store = await openStore({ workspace: path.join(tempDir(), 'workspace'), database: '  ' });
    try {
      expect(store.engine).toBe('sqlite');
      expect(await store.search.search('anything', { limit: 5, snippets: false })).toEqual([]);
      expect(await store.health.sources()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('connects to a postgres:// URL as the member it names, with that member\'s level', async () => {
    const store = await openStore({ workspace: tempDir(), database: server.urlFor(login, 'pw-auditor') });
    try {
      expect(store.engine).toBe('postgres');
      expect(store.member).toEqual({ login, level: 'auditor' });
      expect(await store.search.search('anything', { limit: 5, snippets: true })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('refuses a database that is not a postgres:// URL, and a wrong password by the login', async () => {
    await expect(openStore({ workspace: tempDir(), database: 'mysql://x@y/z' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(openStore({ workspace: tempDir(), database: server.urlFor(login, 'wrong') })).rejects.toMatchObject({
      code: 'DATABASE_ROLE_REFUSED',
    });
  });
});
