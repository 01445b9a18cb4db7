// Library changes on the desk of a shared workspace (issue 13): a reviewer renames and removes an
// answer of its project, an admin removes a source from the shared library, each an appended
// library_changes row with its audit entry in the one chain; every member's desk shows the names
// and leaves out what was removed (lists, pages, search; cards say their source was removed); a
// teammate's feed hears of each change; a reviewer removing a source is refused by PostgreSQL
// itself, in a sentence naming the role, and nothing is stored. A source restricted or lifted
// reaches a teammate's feed too, from a trigger, however it was written.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSharedDesk, type SharedDesk } from '../../../electron/services/shared-desk.ts';
import { migrateWorkspace } from '../../../electron/services/store/postgres/pg-workspace-migrate.ts';
import { grantInProject } from '../../../electron/services/store/postgres/team.ts';
import type { AppEvent } from '../../../shared/contract/events.ts';
import type { HandlerName, HandlerOutput } from '../../../shared/contract/contract.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { NOTES_TEXT } from '../../support/policy-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';
import { closeShared, followLive } from '../../support/shared-desks.ts';

const PROJECT = 'local';
const MARKDOWN = `Question: How long is probation?

Probation lasts six months [1].

[1]: "The probation period lasts six months for all new starters." — onboarding-notes.txt, line 6
`;

let server: TestPostgres;
let owner: pg.Client;
let admin: SharedDesk;
let reviewer: SharedDesk;
const heardByAdmin: AppEvent[] = [];
const heardByReviewer: AppEvent[] = [];
let answerId = 0;
let notesId = 0;

async function call<N extends HandlerName>(desk: SharedDesk, name: N, input: unknown): Promise<HandlerOutput<N>> {
  const reply = await desk.dispatch(name, input);
  if (!reply.ok) throw new Error(`${name}: ${reply.error.code} ${reply.error.message}`);
  return reply.value as HandlerOutput<N>;
}

const changeRows = async (): Promise<{ subject: string; subject_id: number; action: string; value: string | null }[]> =>
  (await owner.query('SELECT subject, subject_id, action, value FROM library_changes ORDER BY id')).rows;

beforeAll(async () => {
  server = await startTestPostgres();
  owner = await server.owner();
  const local = openTestServices();
  const notes = writeFile(path.join(local.dir, 'docs'), 'onboarding-notes.txt', NOTES_TEXT);
  expect((await local.ingest.ingest({ paths: [notes] })).files.every((f) => f.ok)).toBe(true);
  expect((await local.dispatch('answers.import', { fileName: 'probation.md', content: MARKDOWN })).ok).toBe(true);
  local.close();
  await migrateWorkspace(owner, { from: local.workspaceDir, project: { key: PROJECT, name: 'Onboarding review' } });
  const open = async (name: string, level: 'admin' | 'reviewer'): Promise<SharedDesk> => {
    const password = randomBytes(9).toString('hex');
    const login = `${server.loginPrefix}${name}`;
    await grantInProject(owner, { login, level, password, project: PROJECT });
    return openSharedDesk(server.urlFor(login, password), tempDir(`evidesk-lib-${name}-`), 'cli');
  };
  admin = await open('carol', 'admin');
  reviewer = await open('ana', 'reviewer');
  await followLive(admin, heardByAdmin);
  await followLive(reviewer, heardByReviewer);
  answerId = (await call(reviewer, 'answers.list', {}))[0]?.id ?? 0;
  notesId = (await call(reviewer, 'sources.list', {}))[0]?.id ?? 0;
}, 180_000);

afterAll(() => closeShared({ desks: [admin, reviewer], owner, server }));

/** The restrictions the reviewer's desk has heard of, in order. */
const heardRestrictions = () => heardByReviewer.flatMap((e) => (e.type === 'shared.changed' && e.update === 'restricted' ? [{ table: e.table, id: e.id, answerId: e.answerId }] : []));

const heardLibrary = () => heardByAdmin.filter((e) => e.type === 'shared.changed' && e.table === 'library_changes');

describe('library changes on a shared workspace', () => {
  it("renames an answer as a reviewer: every member's list and cards show the name, the chain records it", async () => {
    expect(answerId).toBeGreaterThan(0);
    const renamed = await call(reviewer, 'answers.rename', { id: answerId, name: 'Probation (HR check)' });
    expect(renamed).toEqual({ id: answerId, hidden: false, name: 'Probation (HR check)' });
    // The same name again appends nothing.
    await call(reviewer, 'answers.rename', { id: answerId, name: 'Probation (HR check)' });
    expect(await changeRows()).toEqual([{ subject: 'answer', subject_id: answerId, action: 'rename', value: 'Probation (HR check)' }]);
    expect((await call(admin, 'answers.list', {})).map((a) => a.name)).toEqual(['Probation (HR check)']);
    expect((await call(admin, 'answers.get', { id: answerId })).answer.name).toBe('Probation (HR check)');
    await expect.poll(() => heardLibrary().map((e) => (e.type === 'shared.changed' ? e.answerId : 0)), { timeout: 30_000 }).toEqual([answerId]);
    const entry = (await owner.query<{ action: string; table_name: string }>("SELECT action, table_name FROM audit_log WHERE table_name = 'library_changes'")).rows;
    expect(entry).toEqual([{ action: 'answer.rename', table_name: 'library_changes' }]);
    expect(await call(admin, 'audit.verify', {})).toMatchObject({ ok: true });
  });

  it('removes an answer from every member’s list and restores it, its trail kept', async () => {
    expect(await call(reviewer, 'answers.remove', { id: answerId })).toMatchObject({ hidden: true });
    expect(await call(admin, 'answers.list', {})).toEqual([]);
    // Still there when asked for by id: nothing is deleted.
    expect((await call(admin, 'answers.detail', { id: answerId })).citations).toHaveLength(1);
    expect(await call(reviewer, 'answers.restore', { id: answerId })).toMatchObject({ hidden: false, name: 'Probation (HR check)' });
    expect((await call(admin, 'answers.list', {})).map((a) => a.id)).toEqual([answerId]);
    await expect.poll(() => heardLibrary().length, { timeout: 30_000 }).toBe(3);
  });

  it("removes a source from the shared library as an admin: out of every member's library and search, its cards say so", async () => {
    expect(await call(admin, 'sources.remove', { id: notesId })).toMatchObject({ id: notesId, hidden: true });
    expect(await call(reviewer, 'sources.list', {})).toEqual([]);
    expect((await call(reviewer, 'sources.page', { limit: 50 })).rows).toEqual([]);
    expect((await call(reviewer, 'search.query', { query: 'probation' })).hits).toEqual([]);
    const opened = await call(reviewer, 'answers.open', { id: answerId, filter: 'all', pageSize: 20 });
    expect(opened.first.rows.map((r) => r.citation.source?.removed)).toEqual([true]);
    expect((await call(reviewer, 'answers.detail', { id: answerId })).citations.map((c) => c.source?.removed)).toEqual([true]);
    await expect.poll(() => heardLibrary().filter((e) => e.type === 'shared.changed' && e.answerId === null).length, { timeout: 30_000 }).toBe(1);
    expect(await call(admin, 'sources.restore', { id: notesId })).toMatchObject({ hidden: false });
    expect((await call(reviewer, 'sources.list', {})).map((s) => s.id)).toEqual([notesId]);
    expect(await call(admin, 'audit.verify', {})).toMatchObject({ ok: true });
  });

  it("refuses a reviewer's removal of a source in PostgreSQL itself, naming the role, and stores nothing", async () => {
    const before = await changeRows();
    const reply = await reviewer.dispatch('sources.remove', { id: notesId });
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.code).toBe('DATABASE_ROLE_REFUSED');
      expect(reply.error.message).toMatch(
        /^The reviewer role may not remove a source from the library: only an admin removes or restores the shared workspace's sources, and the shared database refused it \(.+\)\.$/,
      );
    }
    expect(await changeRows()).toEqual(before);
    expect((await call(reviewer, 'sources.list', {})).map((s) => s.id)).toEqual([notesId]);
  });

  it("tells a teammate's desk live of each restriction by an admin and its lifting, sent by PostgreSQL itself (migration 14); its library then shows the flag", async () => {
    expect(notesId).toBeGreaterThan(0);
    expect(await call(admin, 'sources.setRestricted', { ids: [notesId], restricted: true })).toMatchObject({ changed: 1 });
    await expect.poll(heardRestrictions, { timeout: 30_000 }).toEqual([{ table: 'sources', id: notesId, answerId: null }]);
    expect((await call(reviewer, 'sources.list', {})).find((s) => s.id === notesId)?.restricted).toBe(true);

    // Again: restricted already, nothing changes and nothing is sent.
    expect(await call(admin, 'sources.setRestricted', { ids: [notesId], restricted: true })).toMatchObject({ changed: 0 });
    // Lifted: heard again (the same source, a second change), and the library follows.
    expect(await call(admin, 'sources.setRestricted', { ids: [notesId], restricted: false })).toMatchObject({ changed: 1 });
    await expect.poll(() => heardRestrictions().length, { timeout: 30_000 }).toBe(2);
    expect((await call(reviewer, 'sources.list', {})).find((s) => s.id === notesId)?.restricted).toBe(false);

    // Sent by the database, not by the desk: a restriction written by another client is heard too.
    await owner.query('UPDATE sources SET restricted = 1 WHERE id = $1', [notesId]);
    await expect.poll(() => heardRestrictions().length, { timeout: 30_000 }).toBe(3);
    expect(heardRestrictions()).toEqual(Array.from({ length: 3 }, () => ({ table: 'sources', id: notesId, answerId: null })));
  }, 60_000);
});
