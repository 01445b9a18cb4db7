// Answers on the desk of a shared workspace (issue 13): a reviewer imports an answer (the desk's
// importSummary and import), verifies it again and exports its report in every format, through the
// same services as the local desk, each write as the reviewer's login in the one audit chain; the
// report's sources, excerpts (drawn from the shared snapshot: the reviewer has no file of its own),
// audit head and workspace id come from the shared store. An auditor exports too (reading only),
// but its import is refused by PostgreSQL itself, in a sentence naming the role, and nothing is
// stored. What is not on the shared store yet is still refused with a sentence.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedDesk } from '../../../electron/services/shared-desk.ts';
import { migrateWorkspace } from '../../../electron/services/store/postgres/pg-workspace-migrate.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import Papa from 'papaparse';
import { nativeAnswer, policyWorkspace } from '../../support/policy-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { closeShared, deskCall, openMemberDesk } from '../../support/shared-desks.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';

const PROJECT = 'hr';
const CITATIONS = [
  { marker: '1', claim: 'Employees receive 14 days of annual leave per year.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Employees receive 15 days of annual leave.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '3', claim: 'The probation period lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
  { marker: '4', claim: 'Staff may work from home on Fridays.', quote: 'Employees may work from home on Fridays without approval.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
];
const ANSWER = nativeAnswer(CITATIONS, 'What do the HR documents say about leave and probation?');

let server: TestPostgres;
let owner: pg.Client;
let reviewer: SharedDesk;
let auditor: SharedDesk;
let answerId = 0;
const out = tempDir('evidesk-desk-reports-');

const count = async (table: string): Promise<number> => Number((await owner.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);

beforeAll(async () => {
  server = await startTestPostgres();
  owner = await server.owner();
  // The sources, ingested on someone else's machine and moved into the shared workspace.
  const local = openTestServices();
  const { docs } = await policyWorkspace(local);
  local.close();
  await migrateWorkspace(owner, { from: local.workspaceDir, project: { key: PROJECT, name: 'HR review' } });
  fs.rmSync(docs, { recursive: true, force: true });
  reviewer = await openMemberDesk(server, owner, { name: 'rita', level: 'reviewer', project: PROJECT, mode: 'browser' });
  auditor = await openMemberDesk(server, owner, { name: 'audrey', level: 'auditor', project: PROJECT, mode: 'browser' });
}, 180_000);

afterAll(() => closeShared({ desks: [reviewer, auditor], owner, server }));

describe('answers on a shared desk', () => {
  it("imports an answer as the reviewer: stored in the reviewer's project, verified over the shared sources, its cards open", async () => {
    const chainBefore = await count('audit_log');
    const imported = await deskCall(reviewer, 'answers.importSummary', { fileName: 'leave.json', content: ANSWER });
    answerId = imported.answer.id;
    expect(imported.citationCount).toBe(4);
    const stored = (await owner.query<{ project_key: string; origin: string }>('SELECT project_key, origin FROM answers WHERE id = $1', [answerId])).rows[0];
    expect(stored).toEqual({ project_key: PROJECT, origin: 'import:leave.json' });
    expect(await count('audit_log')).toBeGreaterThan(chainBefore);

    const opened = await deskCall(reviewer, 'answers.open', { id: answerId, filter: 'all', pageSize: 50 });
    const byMarker = new Map(opened.first.rows.map(({ citation }) => [citation.marker, citation]));
    expect(byMarker.get('1')?.result?.status).toBe('verified');
    expect(byMarker.get('2')?.result?.verdict).toBe('contradicted');
    expect(byMarker.get('3')?.result?.status).toBe('verified');
    expect(byMarker.get('4')?.result?.status).toBe('not_found');
    // The same file again is known as imported before (the library's check).
    const again = await deskCall(reviewer, 'answers.findImported', { content: ANSWER });
    expect(again.previous?.id).toBe(answerId);
  });

  it('imports through answers.import too, the reply named as the library shows it', async () => {
    const detail = await deskCall(reviewer, 'answers.import', { fileName: 'leave-copy.json', content: ANSWER });
    expect(detail.citations.map((c) => c.result?.status)).toEqual(['verified', 'verified', 'verified', 'not_found']);
    expect((await deskCall(reviewer, 'answers.list', {})).map((a) => a.id)).toContain(detail.answer.id);
  });

  it("refuses an auditor's import in PostgreSQL itself, in a sentence naming the role; nothing is stored", async () => {
    const [answers, citations, chain] = [await count('answers'), await count('citations'), await count('audit_log')];
    const reply = await auditor.dispatch('answers.importSummary', { fileName: 'leave.json', content: ANSWER });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('DATABASE_ROLE_REFUSED');
    expect(reply.error.message).toMatch(/^The auditor role may not import an answer: the shared database refused it \(permission denied/);
    expect([await count('answers'), await count('citations'), await count('audit_log')]).toEqual([answers, citations, chain]);
  });

  it('verifies the answer again as the reviewer: a new run in the shared store, earlier runs kept', async () => {
    const runs = async () => Number((await owner.query<{ n: string }>('SELECT count(*) AS n FROM verification_runs WHERE answer_id = $1', [answerId])).rows[0]?.n);
    expect(await runs()).toBe(1);
    const detail = await deskCall(reviewer, 'answers.verify', { id: answerId });
    expect(detail.citations.map((c) => c.result?.status)).toEqual(['verified', 'verified', 'verified', 'not_found']);
    expect(await runs()).toBe(2);
    // An auditor may not write a run either.
    const refused = await auditor.dispatch('answers.verify', { id: answerId });
    expect(refused.ok ? null : refused.error.code).toBe('DATABASE_ROLE_REFUSED');
    expect(await runs()).toBe(2);
  });

  it('exports the report as Markdown, HTML, JSON, CSV, PDF and BibTeX from the shared store, with its audit head, chain id and excerpts', async () => {
    await deskCall(reviewer, 'answers.review', { citationId: (await deskCall(reviewer, 'answers.detail', { id: answerId })).citations[1]!.id, decision: 'rejected', note: 'The policy says 14 days.' });
    const head = (await owner.query<{ chain_id: string; hash: string }>('SELECT chain_id::text AS chain_id, hash FROM audit_head')).rows[0]!;
    const written: Record<string, string> = {};
    for (const format of ['md', 'html', 'json', 'csv', 'pdf', 'bib'] as const) {
      const file = path.join(out, `report.${format}`);
      const result = await deskCall(reviewer, 'answers.export', { id: answerId, format, path: file });
      expect(result).toMatchObject({ path: file, format, verifiedFirst: false, summary: { total: 4, included: 4 } });
      written[format] = file;
    }
    const report = reportFromJson(fs.readFileSync(written.json!, 'utf8'), 'report.json');
    expect(report.provenance.auditHead).toBe(head.hash);
    expect(report.provenance.workspaceId).toBe(head.chain_id);
    expect(report.sources.map((s) => s.fileName).sort()).toEqual(['HR_Policy.pdf', 'onboarding-notes.txt']);
    // The reviewer has no file of its own: health says so, and the excerpts come from the shared snapshot.
    expect(report.sources.every((s) => s.health === 'missing' && s.snapshot)).toBe(true);
    const first = report.citations.find((c) => c.marker === '1')!;
    expect(first.excerpt && 'image' in first.excerpt).toBe(true);
    expect(report.citations.find((c) => c.marker === '2')?.review).toMatchObject({ decision: 'rejected', reviewer: `${server.loginPrefix}rita` });

    const markdown = fs.readFileSync(written.md!, 'utf8');
    expect(markdown).toContain('[^1]');
    expect(markdown).toContain(report.sources[0]!.sha256);
    expect(fs.readFileSync(written.html!, 'utf8')).toMatch(/^<!doctype html>/i);
    const csv = Papa.parse<Record<string, string>>(fs.readFileSync(written.csv!, 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    expect(csv.errors).toEqual([]);
    expect(csv.data.map((r) => r.marker)).toEqual(['1', '2', '3', '4']);
    expect(Buffer.from(fs.readFileSync(written.pdf!)).subarray(0, 5).toString()).toBe('%PDF-');
    // The bibliography names the authors the PDF gave of itself, read from the shared source_properties.
    expect(fs.readFileSync(written.bib!, 'utf8')).toMatch(/author = \{.*Smith/);
  }, 180_000);

  it('previews the report and lets an auditor export it (a read), naming its login as the reviewer by default', async () => {
    const { html } = await deskCall(auditor, 'answers.exportPreview', { id: answerId, format: 'html' });
    expect(html).toContain('What do the HR documents say about leave and probation?');
    expect((await deskCall(auditor, 'answers.exportDefaults', {})).reviewer).toBe(`${server.loginPrefix}audrey`);
    const file = path.join(out, 'auditor.json');
    await deskCall(auditor, 'answers.export', { id: answerId, format: 'json', path: file, excerpts: false });
    expect(reportFromJson(fs.readFileSync(file, 'utf8'), 'auditor.json').provenance.options.reviewer).toBe(`${server.loginPrefix}audrey`);
  }, 120_000);

  it('still refuses, in a sentence, what is not on the shared store yet', async () => {
    const refusals: [string, unknown, RegExp][] = [
      ['answers.ask', { question: 'How long is probation?' }, /^Asking the offline answerer is not available on a shared database yet/],
      ['sources.addUrl', { url: 'https://example.org/' }, /^Adding a web page is not available on a shared database yet/],
      ['workspace.updateSettings', { modelJudge: true }, /^Changing the workspace settings is not available on a shared database yet/],
    ];
    for (const [name, input, message] of refusals) {
      const reply = await reviewer.dispatch(name as 'answers.ask', input);
      expect(reply.ok ? null : [reply.error.code, reply.error.message]).toEqual(['SHARED_DATABASE_UNSUPPORTED', expect.stringMatching(message)]);
    }
  });
});
