// The viewer's find and the restricted flag on the desk of a shared workspace (issue 13): find
// lists the same hits as the local desk over the same stored pages; an admin marks a source
// restricted and lifts it, each change audited in the one chain in its transaction (the chain
// still verifies, flags included); a reviewer is refused by PostgreSQL itself, in a sentence naming
// the role and who may, and nothing changes; an unknown id changes nothing.
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedDesk } from '../../../electron/services/shared-desk.ts';
import { verifyPgChain } from '../../../electron/services/store/postgres/pg-audit-chain.ts';
import { migrateWorkspace } from '../../../electron/services/store/postgres/pg-workspace-migrate.ts';
import type { FindResult } from '../../../shared/contract/reader-schemas.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, NOTES_TEXT, POLICY_PAGES } from '../../support/policy-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { closeShared, deskCall, openMemberDesk } from '../../support/shared-desks.ts';
import { callHandler, openTestServices } from '../../support/workspace.ts';

const PROJECT = 'local';
const QUERIES = ['leave', 'STAFF   portal', 'six', 'no such words'];

let server: TestPostgres;
let owner: pg.Client;
let admin: SharedDesk;
let reviewer: SharedDesk;
let ids: Record<string, number> = {};
const localFinds = new Map<string, FindResult>();

const call = deskCall;

const flags = async (): Promise<Record<number, number>> =>
  Object.fromEntries((await owner.query<{ id: number; restricted: number }>('SELECT id, restricted FROM sources ORDER BY id')).rows.map((r) => [r.id, r.restricted]));

beforeAll(async () => {
  server = await startTestPostgres();
  owner = await server.owner();
  const local = openTestServices();
  const docs = path.join(local.dir, 'docs');
  ids = await ingestAll(local, [writeFile(docs, 'hr-policy.pdf', await makePdf(POLICY_PAGES)), writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT)]);
  for (const q of QUERIES) localFinds.set(q, await callHandler<FindResult>(local, 'sources.find', { id: ids['hr-policy.pdf'], query: q }));
  local.close();
  await migrateWorkspace(owner, { from: local.workspaceDir, project: { key: PROJECT, name: 'Policy review' } });
  admin = await openMemberDesk(server, owner, { name: 'dora', level: 'admin', project: PROJECT, mode: 'cli' });
  reviewer = await openMemberDesk(server, owner, { name: 'ben', level: 'reviewer', project: PROJECT, mode: 'cli' });
}, 180_000);

afterAll(() => closeShared({ desks: [admin, reviewer], owner, server }));

describe("the viewer's find on a shared desk", () => {
  it('lists the same hits, pages, labels and offsets as the local desk', async () => {
    const policy = ids['hr-policy.pdf'];
    expect(localFinds.get('leave')?.hits.length).toBeGreaterThan(1);
    for (const q of QUERIES) expect(await call(reviewer, 'sources.find', { id: policy, query: q })).toEqual(localFinds.get(q));
    const hits = (await call(reviewer, 'sources.find', { id: policy, query: 'staff portal' })).hits;
    expect(hits.map((h) => h.page)).toEqual([3]);
    const page = await call(reviewer, 'sources.pageText', { id: policy, page: 3 });
    expect(page.text.slice(hits[0]?.start, hits[0]?.end)).toBe('staff portal');
  });

  it('names a source that does not exist in a coded error', async () => {
    const reply = await reviewer.dispatch('sources.find', { id: 9999, query: 'leave' });
    expect(reply.ok ? null : reply.error.code).toBe('SOURCE_NOT_FOUND');
  });
});

describe('marking sources restricted on a shared desk', () => {
  it('an admin marks a source restricted and lifts it, each audited in the shared chain', async () => {
    const notes = ids['onboarding-notes.txt'] as number;
    const marked = await call(admin, 'sources.setRestricted', { ids: [notes, notes], restricted: true });
    expect(marked.changed).toBe(1);
    expect(marked.sources.map((s) => [s.id, s.restricted])).toEqual([[notes, true]]);
    // Every member's desk reads the pool's flag.
    expect((await call(reviewer, 'sources.list', {})).find((s) => s.id === notes)?.restricted).toBe(true);
    expect((await call(admin, 'sources.setRestricted', { ids: [notes], restricted: true })).changed).toBe(0);
    const entries = async () => (await owner.query<{ action: string; payload: string }>("SELECT action, payload FROM audit_log WHERE action LIKE 'source.%restrict' ORDER BY seq")).rows;
    expect(await entries()).toEqual([{ action: 'source.restrict', payload: JSON.stringify({ sourceIds: [notes] }) }]);
    expect((await verifyPgChain(owner)).ok).toBe(true);

    expect((await call(admin, 'sources.setRestricted', { ids: [notes], restricted: false })).changed).toBe(1);
    expect((await entries()).map((e) => e.action)).toEqual(['source.restrict', 'source.unrestrict']);
    expect((await flags())[notes]).toBe(0);
    expect((await verifyPgChain(owner)).ok).toBe(true);
  });

  it('refuses a reviewer in a sentence naming the role and who may, and changes nothing', async () => {
    const before = await flags();
    const reply = await reviewer.dispatch('sources.setRestricted', { ids: [ids['hr-policy.pdf']], restricted: true });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('DATABASE_ROLE_REFUSED');
    expect(reply.error.message).toMatch(/^The reviewer role may not mark sources restricted: only an admin marks the shared workspace's sources restricted, and the shared database refused it/);
    expect(await flags()).toEqual(before);
  });

  it('changes nothing when one of the ids is not a source', async () => {
    const before = await flags();
    const reply = await admin.dispatch('sources.setRestricted', { ids: [ids['hr-policy.pdf'], 9999], restricted: true });
    expect(reply.ok ? null : [reply.error.code, reply.error.message]).toEqual(['SOURCE_NOT_FOUND', expect.stringContaining('no source with id 9999')]);
    expect(await flags()).toEqual(before);
  });
});
