// A source restricted on the desk of a shared workspace reaches the other open desks live (issue
// 13): the restriction (and its lifting) sends a notification from PostgreSQL itself (migration
// 14, a trigger on the flag), which a teammate's feed hears as a change of that source, each time,
// on its own connection; a restriction that changes nothing sends none.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSharedDesk, type SharedDesk } from '../../../electron/services/shared-desk.ts';
import { migrateWorkspace } from '../../../electron/services/store/postgres/pg-workspace-migrate.ts';
import { grantInProject } from '../../../electron/services/store/postgres/team.ts';
import type { AppEvent } from '../../../shared/contract/events.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { NOTES_TEXT } from '../../support/policy-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { closeShared, deskCall, followLive } from '../../support/shared-desks.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';

const PROJECT = 'local';
let server: TestPostgres;
let owner: pg.Client;
let admin: SharedDesk;
let reviewer: SharedDesk;
const heardByReviewer: AppEvent[] = [];
let notesId = 0;

beforeAll(async () => {
  server = await startTestPostgres();
  owner = await server.owner();
  const local = openTestServices();
  const notes = writeFile(path.join(local.dir, 'docs'), 'onboarding-notes.txt', NOTES_TEXT);
  expect((await local.ingest.ingest({ paths: [notes] })).files.every((f) => f.ok)).toBe(true);
  local.close();
  await migrateWorkspace(owner, { from: local.workspaceDir, project: { key: PROJECT, name: 'Onboarding review' } });
  const open = async (name: string, level: 'admin' | 'reviewer'): Promise<SharedDesk> => {
    const password = randomBytes(9).toString('hex');
    const login = `${server.loginPrefix}${name}`;
    await grantInProject(owner, { login, level, password, project: PROJECT });
    return openSharedDesk(server.urlFor(login, password), tempDir(`evidesk-restrict-${name}-`), 'cli');
  };
  admin = await open('carol', 'admin');
  reviewer = await open('ana', 'reviewer');
  await followLive(reviewer, heardByReviewer);
  notesId = (await deskCall(reviewer, 'sources.list', {}))[0]?.id ?? 0;
}, 180_000);

afterAll(() => closeShared({ desks: [admin, reviewer], owner, server }));

/** The restrictions the reviewer's desk has heard of, in order. */
const heardRestrictions = () => heardByReviewer.flatMap((e) => (e.type === 'shared.changed' && e.update === 'restricted' ? [{ table: e.table, id: e.id, answerId: e.answerId }] : []));

describe("a source restricted on one desk reaches a teammate's desk live", () => {
  it('tells the other desk of each restriction and lifting, and its library then shows the flag', async () => {
    expect(notesId).toBeGreaterThan(0);
    expect(await deskCall(admin, 'sources.setRestricted', { ids: [notesId], restricted: true })).toMatchObject({ changed: 1 });
    await expect.poll(heardRestrictions, { timeout: 30_000 }).toEqual([{ table: 'sources', id: notesId, answerId: null }]);
    expect((await deskCall(reviewer, 'sources.list', {})).find((s) => s.id === notesId)?.restricted).toBe(true);

    // Again: restricted already, nothing changes and nothing is sent.
    expect(await deskCall(admin, 'sources.setRestricted', { ids: [notesId], restricted: true })).toMatchObject({ changed: 0 });
    // Lifted: heard again (the same source, a second change), and the library follows.
    expect(await deskCall(admin, 'sources.setRestricted', { ids: [notesId], restricted: false })).toMatchObject({ changed: 1 });
    await expect.poll(() => heardRestrictions().length, { timeout: 30_000 }).toBe(2);
    expect((await deskCall(reviewer, 'sources.list', {})).find((s) => s.id === notesId)?.restricted).toBe(false);

    // Sent by the database, not by the desk: a restriction written by another client is heard too.
    await owner.query('UPDATE sources SET restricted = 1 WHERE id = $1', [notesId]);
    await expect.poll(() => heardRestrictions().length, { timeout: 30_000 }).toBe(3);
    expect(heardRestrictions()).toEqual(Array.from({ length: 3 }, () => ({ table: 'sources', id: notesId, answerId: null })));
  }, 60_000);
});
