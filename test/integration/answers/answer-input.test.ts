/**
 * answers.import and answers.check take the answer as text. The dispatcher's and the host's suites
 * run on both engines (issue 13): on PostgreSQL the ingested workspace is moved there first and
 * the imports are written there as a reviewer. The command line's runs on SQLite only: `evidesk
 * verify --save` does not take `--database` yet.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { EXIT } from '../../../electron/cli/main.ts';
import { startHost } from '../../../electron/host/server.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { evidesk } from '../../support/cli.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { engineSnapshot } from '../../support/engine-rows.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { nativeAnswer, type PolicyWorkspace, policyWorkspace, withPolicyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, reopenTestServices, tempDir, type TestServices } from '../../support/workspace.ts';

const MARKDOWN = `Question: How much annual leave do employees get?

Employees receive 14 days of annual leave.[^1]

[^1]: "Employees receive 14 days of annual leave per calendar year." — HR_Policy.pdf, p. 3
`;
const NATIVE = nativeAnswer([{ marker: '1', claim: 'New starters get a laptop.', quote: 'New starters receive a laptop on their first day.', source: { file: 'onboarding-notes.txt' } }]);

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
  return 'no error';
}

describeEngines('answers.import and answers.check take the answer as text, never a path', (engine) => {
  let shared: Promise<Opened<PolicyWorkspace>> | undefined;
  const open = () => (shared ??= engine.open((s) => policyWorkspace(s), { as: 'reviewer', scope: 'suite' }));

  it('imports { fileName, content } as the renderer sends it: the format comes from the content, the name only labels it', async () => {
    const { services } = await open();
    // Names that lie about the format: detection reads the text.
    const md = await services.dispatch('answers.import', { fileName: 'answer.json', content: MARKDOWN });
    if (!md.ok) throw new Error(md.error.message);
    expect((md.value as AnswerDetail).answer).toMatchObject({ format: 'markdown', origin: 'import:answer.json', question: 'How much annual leave do employees get?' });
    expect((md.value as AnswerDetail).citations[0]?.result).toMatchObject({ status: 'verified', page: 3 });

    const native = await services.dispatch('answers.import', { fileName: 'notes.md', content: NATIVE });
    expect(native.ok && (native.value as AnswerDetail).answer).toMatchObject({ format: 'evidence-desk/answer@1', origin: 'import:notes.md' });

    const checked = await services.dispatch('answers.check', { fileName: 'x.txt', content: MARKDOWN });
    expect(checked.ok && checked.value).toMatchObject({ format: 'evidence-desk/verification@1', summary: { total: 1 } });
  });

  it('refuses a path in any form, and changes nothing', async () => {
    const opened = await open();
    const { services, prepared: ws } = opened;
    const before = await engineSnapshot(opened);
    const secret = writeFile(ws.docs, 'answer.json', NATIVE);
    for (const input of [
      { path: secret },
      { path: secret, content: NATIVE, fileName: 'answer.json' },
      { content: NATIVE, fileName: secret },
      { content: NATIVE, fileName: '..\\answers\\answer.json' },
      { content: NATIVE },
    ]) {
      for (const name of ['answers.import', 'answers.check']) {
        const reply = await services.dispatch(name, input);
        expect(reply.ok ? 'ok' : reply.error.code, `${name} ${JSON.stringify(input)}`).toBe('INVALID_INPUT');
      }
    }
    const named = await services.dispatch('answers.import', { content: NATIVE, fileName: secret });
    expect(named.ok ? '' : named.error.message).toContain('a file name, not a path');
    expect(await engineSnapshot(opened)).toBe(before);
  });

  it('over the loopback host, as the renderer in browser mode calls it', async () => {
    const { services, prepared: ws } = await open();
    const listed = await callHandler<unknown[]>(services, 'answers.list', {});
    const staticDir = tempDir();
    writeFile(staticDir, 'index.html', '<!doctype html><title>t</title>');
    const host = await startHost({ services, staticDir });
    try {
      const post = async (body: unknown) => {
        const res = await fetch(`http://127.0.0.1:${host.port}/api/answers.import`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-evidesk-token': host.token },
          body: JSON.stringify(body),
        });
        return (await res.json()) as { ok: boolean; value?: AnswerDetail; error?: { code: string } };
      };
      const ok = await post({ fileName: 'answer.md', content: MARKDOWN });
      expect(ok.value?.answer.origin).toBe('import:answer.md');
      const refused = await post({ path: writeFile(ws.docs, 'answer.md', MARKDOWN) });
      expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(await callHandler<unknown[]>(services, 'answers.list', {})).toHaveLength(listed.length + 1);
    } finally {
      await host.close();
    }
  });

});

describe('answers.import from the command line', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((opened) => ({ services, ws } = opened));

  it('the command line reads the file itself and sends its text; file errors are its own', async () => {
    const file = writeFile(path.join(services.dir, 'answers'), 'leave.md', `\uFEFF${MARKDOWN}`);
    expect(readAnswerFile(file)).toEqual({ fileName: 'leave.md', content: MARKDOWN });
    expect(codeOf(() => readAnswerFile(path.join(services.dir, 'nope.json')))).toBe('FILE_MISSING');
    expect(codeOf(() => readAnswerFile(ws.docs))).toBe('FILE_UNREADABLE');

    services.close();
    const workspace = services.workspaceDir;
    const saved = await evidesk(workspace, 'verify', file, '--save');
    expect(saved.code).toBe(EXIT.ok);
    expect(saved.out).toContain('1 citations: 1 verified');
    const missing = await evidesk(workspace, 'verify', path.join(services.dir, 'gone.md'));
    expect(missing.code).toBe(EXIT.error);
    expect(missing.err).toContain('gone.md does not exist. Check the path and try again. [FILE_MISSING]');

    const reopened = reopenTestServices(services);
    try {
      expect(reopened.answers.list()).toMatchObject([{ format: 'markdown', origin: 'import:leave.md' }]);
    } finally {
      reopened.close();
    }
  });
});
