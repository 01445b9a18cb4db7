import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/main.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { SetRestrictedResult, SourceSummary } from '../../../shared/contract/schemas.ts';
import { evidesk } from '../../support/cli.ts';
import { startModelEndpoint } from '../../support/model-endpoint.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll } from '../../support/policy-workspace.ts';
import { callHandler, openTestServices, reopenTestServices, type TestServices } from '../../support/workspace.ts';

const PUBLIC_TEXT = 'Staff handbook\n\nEmployees receive 14 days of annual leave per calendar year.\n';
const SECRET_TEXT = 'Board minutes (confidential)\n\nDirectors receive 40 days of annual leave per calendar year under the executive plan.\n';
const QUESTION = 'How many days of annual leave per calendar year?';

/** A workspace with a handbook and confidential board minutes; ids by file name. */
async function twoSources(services: TestServices): Promise<{ docs: string; handbook: number; minutes: number }> {
  const docs = path.join(services.dir, 'docs');
  writeFile(docs, 'handbook.txt', PUBLIC_TEXT);
  writeFile(docs, 'board-minutes.txt', SECRET_TEXT);
  const ids = await ingestAll(services, [docs]);
  return { docs, handbook: ids['handbook.txt'] ?? 0, minutes: ids['board-minutes.txt'] ?? 0 };
}

const restrictedByName = (list: SourceSummary[]) => Object.fromEntries(list.map((s) => [s.fileName, s.restricted]));

describe('restricted sources', () => {
  let services: TestServices;
  let ws: Awaited<ReturnType<typeof twoSources>>;
  beforeEach(async () => {
    services = openTestServices();
    ws = await twoSources(services);
  });
  afterEach(() => services.close());

  it('sources.setRestricted sets the flag, all or none, audited, and it persists when the workspace is opened again', async () => {
    expect(restrictedByName(await callHandler(services, 'sources.list', {}))).toEqual({ 'handbook.txt': false, 'board-minutes.txt': false });

    const set = await callHandler<SetRestrictedResult>(services, 'sources.setRestricted', { ids: [ws.minutes, ws.minutes], restricted: true });
    expect(set.changed).toBe(1);
    expect(set.sources.map((s) => [s.id, s.restricted])).toEqual([[ws.minutes, true]]);
    // Asking again changes nothing and records nothing.
    expect((await callHandler<SetRestrictedResult>(services, 'sources.setRestricted', { ids: [ws.minutes], restricted: true })).changed).toBe(0);

    // An unknown id refuses the whole request: the handbook stays unrestricted.
    const refused = await services.dispatch('sources.setRestricted', { ids: [ws.handbook, 9999], restricted: true });
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'SOURCE_NOT_FOUND', details: { ids: [9999] } });
    const invalid = await services.dispatch('sources.setRestricted', { ids: [], restricted: true });
    expect(invalid.ok ? null : invalid.error.code).toBe('INVALID_INPUT');
    expect(restrictedByName(await callHandler(services, 'sources.list', {}))).toEqual({ 'handbook.txt': false, 'board-minutes.txt': true });
    expect(await callHandler(services, 'sources.get', { id: ws.minutes })).toMatchObject({ restricted: true });

    const actions = () => (services.db.prepare('SELECT action, payload FROM audit_log WHERE table_name IS NULL ORDER BY id').all() as { action: string; payload: string }[]).map((r) => [r.action, JSON.parse(r.payload) as unknown]);
    expect(actions()).toEqual([['source.restrict', { sourceIds: [ws.minutes] }]]);

    services = reopenTestServices(services);
    expect(restrictedByName(await callHandler(services, 'sources.list', {}))).toEqual({ 'handbook.txt': false, 'board-minutes.txt': true });

    const lifted = await callHandler<SetRestrictedResult>(services, 'sources.setRestricted', { ids: [ws.minutes, ws.handbook], restricted: false });
    expect(lifted.changed).toBe(1);
    expect(actions()).toEqual([
      ['source.restrict', { sourceIds: [ws.minutes] }],
      ['source.unrestrict', { sourceIds: [ws.minutes] }],
    ]);
    expect(await callHandler(services, 'audit.verify', {})).toMatchObject({ ok: true });
  });

  it('a new version of a restricted file is restricted too', async () => {
    await callHandler(services, 'sources.setRestricted', { ids: [ws.minutes], restricted: true });
    writeFile(ws.docs, 'board-minutes.txt', `${SECRET_TEXT}Directors may carry over 10 days.\n`);
    const again = await services.ingest.ingest({ paths: [path.join(ws.docs, 'board-minutes.txt')] });
    const file = again.files[0];
    expect(file).toMatchObject({ ok: true, outcome: 'new_version' });
    const newer = (await callHandler<SourceSummary[]>(services, 'sources.list', {})).find((s) => file?.ok && s.id === file.sourceId);
    expect(newer).toMatchObject({ predecessorId: ws.minutes, restricted: true });
  });

  it('the model answerer never receives a restricted source\'s text once the flag is set through the handler', async () => {
    const endpoint = await startModelEndpoint(() => 'Employees receive 14 days of annual leave per calendar year [1].');
    services = reopenTestServices(services, { model: { baseUrl: endpoint.baseUrl, model: 'local-test' } });
    try {
      // Control: unrestricted, the minutes are retrieved and sent.
      await callHandler<AnswerDetail>(services, 'answers.ask', { question: QUESTION, useModel: true });
      expect(endpoint.received.join('\n')).toContain('Directors receive 40 days');

      await callHandler(services, 'sources.setRestricted', { ids: [ws.minutes], restricted: true });
      endpoint.received.length = 0;
      const d = await callHandler<AnswerDetail>(services, 'answers.ask', { question: QUESTION, useModel: true });
      expect(endpoint.received).toHaveLength(1);
      const sent = endpoint.received.join('\n');
      expect(sent).toContain('Employees receive 14 days');
      expect(sent).not.toContain('Directors receive 40 days');
      expect(sent).not.toContain('board-minutes');
      expect(d.citations[0]).toMatchObject({ source: { fileName: 'handbook.txt' }, result: { status: 'verified' } });

      // The offline answerer runs on this machine: it still answers from the restricted source.
      const offline = await callHandler<AnswerDetail>(services, 'answers.ask', { question: 'How many days of annual leave do directors receive under the executive plan?' });
      expect(offline.citations.map((c) => c.source?.fileName)).toContain('board-minutes.txt');

      // Only the restricted source is held back: a question only it answers is not sent at all.
      endpoint.received.length = 0;
      const onlySecret = await callHandler<AnswerDetail>(services, 'answers.ask', { question: 'What does the executive plan give directors?', useModel: true });
      expect(endpoint.received.join('\n')).not.toContain('Directors receive 40 days');
      expect(onlySecret.citations).toEqual([]);
    } finally {
      await endpoint.close();
    }
  });

  it('evidesk restrict marks sources by id or SHA-256 prefix, evidesk sources shows it, --off lifts it', async () => {
    const list = await callHandler<SourceSummary[]>(services, 'sources.list', {});
    const minutes = list.find((s) => s.id === ws.minutes);
    services.close();
    const workspace = services.workspaceDir;

    const bySha = await evidesk(workspace, 'restrict', (minutes?.sha256 ?? '').slice(0, 8));
    expect(bySha.code).toBe(EXIT.ok);
    expect(bySha.out).toContain('1 source restricted.');
    const shown = await evidesk(workspace, 'sources');
    expect(shown.out.split('\n').find((l) => l.includes('board-minutes.txt'))).toContain('🔒 restricted');
    expect(shown.out.split('\n').find((l) => l.includes('handbook.txt'))).not.toContain('🔒');

    const both = await evidesk(workspace, 'restrict', String(ws.handbook), 'board-minutes.txt', '--json');
    expect(JSON.parse(both.out)).toMatchObject({ changed: 1, sources: [{ id: ws.handbook, restricted: true }, { id: ws.minutes, restricted: true }] });

    // A typo among the sources restricts none of them.
    const typo = await evidesk(workspace, 'restrict', '--off', String(ws.handbook), 'no-such-file.pdf');
    expect(typo.code).toBe(EXIT.error);
    expect(typo.err).toContain('No source matches "no-such-file.pdf"');
    const afterTypo = JSON.parse((await evidesk(workspace, 'sources', '--json')).out) as SourceSummary[];
    expect(restrictedByName(afterTypo)).toEqual({ 'handbook.txt': true, 'board-minutes.txt': true });

    const off = await evidesk(workspace, 'restrict', '--off', String(ws.handbook));
    expect(off.code).toBe(EXIT.ok);
    expect(off.out).toContain('1 source unrestricted.');
    expect(restrictedByName(JSON.parse((await evidesk(workspace, 'sources', '--json')).out) as SourceSummary[])).toEqual({ 'handbook.txt': false, 'board-minutes.txt': true });

    expect((await evidesk(workspace, 'restrict')).code).toBe(EXIT.usage);
  });
});
