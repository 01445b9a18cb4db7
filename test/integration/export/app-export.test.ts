/**
 * The app's export path (issue 9, "Where users find it"): the save dialog is the platform's, in the
 * main process; cancelling it writes nothing; "Open folder" reveals only files exported this session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { nativeAnswer, policyWorkspace } from '../../support/policy-workspace.ts';
import { createServices } from '../../../electron/services/create-services.ts';
import { callHandler, openScriptedServices, testPlatform, type ScriptedServices } from '../../support/workspace.ts';

describe('answers.exportWithDialog and answers.revealExport', () => {
  let services: ScriptedServices;
  let answerId: number;

  beforeEach(async () => {
    services = openScriptedServices();
    await policyWorkspace(services);
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', {
      fileName: 'leave.json',
      content: nativeAnswer([{ marker: '1', claim: 'Leave is 14 days.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' } }]),
    });
    answerId = detail.answer.id;
  });
  afterEach(() => services.close());

  it('writes where the save dialog chose, then reveals that file', async () => {
    const target = path.join(services.dir, 'chosen.html');
    services.platform.saveAnswers.push(target);
    const reply = await callHandler<{ cancelled: boolean; result: { path: string; bytes: number } | null }>(services, 'answers.exportWithDialog', { id: answerId, format: 'html' });
    expect(reply.cancelled).toBe(false);
    expect(reply.result?.path).toBe(target);
    expect(fs.readFileSync(target, 'utf8')).toContain('Employees receive 14 days of annual leave per calendar year.');
    expect(await callHandler(services, 'answers.revealExport', { path: target })).toEqual({ revealed: true });
    expect(services.platform.revealed).toEqual([target]);
  });

  it('a cancelled save dialog writes nothing', async () => {
    services.platform.saveAnswers.push(null);
    const before = fs.readdirSync(services.dir);
    expect(await callHandler(services, 'answers.exportWithDialog', { id: answerId, format: 'md' })).toEqual({ cancelled: true, result: null });
    expect(fs.readdirSync(services.dir)).toEqual(before);
  });

  it('the page cannot reveal a path that was not exported here, nor send one to the dialog export', async () => {
    const other = path.join(services.dir, 'elsewhere.txt');
    fs.writeFileSync(other, 'x');
    const reply = await services.dispatch('answers.revealExport', { path: other });
    expect(reply).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('elsewhere.txt') } });
    expect(services.platform.revealed).toEqual([]);
    // A path smuggled into the dialog export is dropped by the contract: the dialog's answer is used.
    const target = path.join(services.dir, 'picked.json');
    services.platform.saveAnswers.push(target);
    await callHandler(services, 'answers.exportWithDialog', { id: answerId, format: 'json', path: other });
    expect(fs.readFileSync(other, 'utf8')).toBe('x');
    expect(fs.existsSync(target)).toBe(true);
  });

  it('in Electron the page cannot name a path: answers.export is refused there, and writes nothing', async () => {
    const workspaceDir = services.workspaceDir;
    services.close();
    const platform = { ...testPlatform(), mode: 'electron' as const };
    services = Object.assign(createServices(platform, workspaceDir), { dir: services.dir, platform });
    const target = path.join(services.dir, 'typed.html');
    const reply = await services.dispatch('answers.export', { id: answerId, format: 'html', path: target });
    expect(reply).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('save dialog') } });
    expect(fs.existsSync(target)).toBe(false);
    // The dialog export still works there.
    platform.saveAnswers.push(target);
    expect(await callHandler(services, 'answers.exportWithDialog', { id: answerId, format: 'html' })).toMatchObject({ cancelled: false, result: { path: target } });
  });
});
