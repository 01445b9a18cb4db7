/**
 * The audit chain over the whole record, through the real services on a real workspace: every
 * appended evidence row gets exactly one entry in the transaction that writes it, the head file
 * follows every committed change and never a rolled-back one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { AnswersStore } from '../../../electron/services/store/answers-store.ts';
import { headFilePath, sha256Text, writeHeadFile } from '../../../electron/services/store/audit-head-file.ts';
import { CHAIN_TABLE_NAMES } from '../../../shared/audit/canonical.ts';
import { parseHeadFile } from '../../../shared/audit/head.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, policyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, openTestServices, reopenTestServices, type TestServices } from '../../support/workspace.ts';

function headFile(services: TestServices) {
  const parsed = parseHeadFile(fs.readFileSync(headFilePath(services.workspaceDir), 'utf8'), sha256Text);
  if (parsed.state !== 'ok') throw new Error(`head file ${parsed.state}`);
  return parsed.head;
}

/** The head file is the database's head right now. */
function expectAnchored(services: TestServices): void {
  const db = services.audit.head();
  expect(headFile(services)).toMatchObject({ count: db.count, hash: db.hash });
}

/** Each covered row has exactly one entry, and each entry's row exists. */
function expectEveryRowRecorded(services: TestServices): void {
  for (const table of CHAIN_TABLE_NAMES) {
    const unrecorded = services.db
      .prepare(`SELECT id FROM ${table} t WHERE (SELECT count(*) FROM audit_log a WHERE a.table_name = ? AND a.row_id = t.id) <> 1`)
      .all(table);
    expect(unrecorded, table).toEqual([]);
  }
}

describe('the audit chain over the whole record', () => {
  let services: TestServices | undefined;
  afterEach(() => services?.close());

  it('a new workspace starts with an empty chain anchored in its head file', () => {
    services = openTestServices();
    expect(headFile(services)).toMatchObject({ count: 0, hash: '0'.repeat(64) });
    expect(services.audit.check()).toMatchObject({ ok: true, rows: 0, evidenceRows: 0, headFile: { state: 'ok', count: 0 } });
  });

  it('an empty chain whose head file was lost (a crash before the first write) is anchored again at open; a non-empty one is not', async () => {
    services = openTestServices();
    fs.rmSync(headFilePath(services.workspaceDir));
    services = reopenTestServices(services);
    expect(headFile(services)).toMatchObject({ count: 0 });
    await policyWorkspace(services);
    fs.rmSync(headFilePath(services.workspaceDir));
    services = reopenTestServices(services);
    expect(fs.existsSync(headFilePath(services.workspaceDir))).toBe(false);
    expect(services.audit.check().brokenAt).toMatchObject({ kind: 'head_missing' });
  });

  it('records sources, paths, answers, citations, runs, results, decisions, new versions, known paths and relinks, each anchored', async () => {
    services = openTestServices();
    const ws = await policyWorkspace(services);
    expectEveryRowRecorded(services);
    expectAnchored(services);
    const actions = () => (services?.db.prepare('SELECT action, table_name AS t FROM audit_log ORDER BY id').all() as { action: string; t: string | null }[]).map((r) => `${r.action}${r.t ? `:${r.t}` : ''}`);
    expect(actions().slice(0, 2)).toEqual(['source.add:sources', 'row.append:source_paths']);

    const file = writeFile(ws.docs, 'answer.json', nativeAnswer([{ marker: '1', claim: 'Leave is 14 days.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' } }]));
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(file));
    expectAnchored(services);
    await callHandler(services, 'answers.review', { citationId: detail.citations[0]?.id, decision: 'accepted' });
    expectAnchored(services);
    await callHandler(services, 'answers.verify', { id: detail.answer.id });
    await callHandler(services, 'sources.setRestricted', { ids: [ws.ids['onboarding-notes.txt']], restricted: true });
    expectAnchored(services);

    // The same bytes at a second path; then a new version at the first.
    const copy = path.join(ws.docs, 'copy-of-notes.txt');
    fs.copyFileSync(ws.notes, copy);
    await services.ingest.ingest({ paths: [copy] });
    writeFile(ws.docs, 'onboarding-notes.txt', 'Onboarding notes\n\nRevised: a laptop arrives before the first day.\n');
    await services.ingest.ingest({ paths: [ws.notes] });
    expectAnchored(services);

    // A moved file relinked.
    const moved = path.join(services.dir, 'moved.pdf');
    fs.renameSync(ws.policy, moved);
    await callHandler(services, 'sources.relink', { id: ws.ids['HR_Policy.pdf'], path: moved });
    expectAnchored(services);

    expectEveryRowRecorded(services);
    const all = actions();
    for (const a of ['answer.import', 'row.append:answers', 'row.append:citations', 'row.append:verification_runs', 'row.append:citation_results', 'row.append:review_decisions', 'citation.review', 'source.restrict', 'source.version:sources', 'source.relink']) {
      expect(all).toContain(a);
    }
    expect(all.filter((a) => a === 'row.append:source_paths')).toHaveLength(5);
    const check = services.audit.check();
    expect(check).toMatchObject({ ok: true, rows: all.length });
    expect(check.brokenAt).toBeUndefined();
  });

  it('a rolled-back transaction leaves neither entries nor a head that is not in the chain', async () => {
    services = openTestServices();
    await policyWorkspace(services);
    const before = headFile(services);
    const rows = services.audit.head().count;
    const store = new AnswersStore(services.db);
    expect(() =>
      store.transaction(() => {
        store.appendAudit('answer.import', { doomed: true }, new Date().toISOString());
        throw new Error('crash in the middle of an import');
      }),
    ).toThrow(/crash/);
    expect(services.audit.head().count).toBe(rows);
    expect(headFile(services)).toEqual(before);
    expect(services.audit.check()).toMatchObject({ ok: true, rows });
  });

  it('never moves the head file backwards (another process anchored a longer chain, or this one was truncated)', async () => {
    services = openTestServices();
    const ws = await policyWorkspace(services);
    const ahead = { count: services.audit.head().count + 50, hash: 'c'.repeat(64), at: new Date().toISOString() };
    writeHeadFile(services.workspaceDir, ahead);
    await callHandler(services, 'sources.setRestricted', { ids: [ws.ids['onboarding-notes.txt']], restricted: true });
    expect(headFile(services)).toEqual(ahead);
    expect(services.audit.check().brokenAt).toMatchObject({ kind: 'truncated' });
  });

  it('a failed import (a bad answer file) writes nothing to the chain', async () => {
    services = openTestServices();
    await policyWorkspace(services);
    const before = headFile(services);
    const reply = await services.dispatch('answers.import', { fileName: 'bad.json', content: '{"format": "nonsense"}' });
    expect(reply.ok).toBe(false);
    expect(headFile(services)).toEqual(before);
  });
});
