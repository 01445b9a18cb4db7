/**
 * The model judge against a local stub endpoint. The import, re-verification and check suites run
 * on both engines (issue 13): on PostgreSQL the workspace (a restricted source included) is moved
 * there first, and the runs with the judge's opinions are written there as a reviewer. Exports
 * still read the local copy, so the exported opinion is checked on SQLite only; the command line's
 * test stays on SQLite, which its verify is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnswerDetail, CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { VerificationResult } from '../../../shared/verification/result-schema.ts';
import { judgeAnswer, judgePrompt, startModelEndpoint, type ChatRequest, type ModelReply } from '../../support/model-endpoint.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, policyWorkspace, type PolicyWorkspace } from '../../support/policy-workspace.ts';
import { openTestServices, type TestServices } from '../../support/workspace.ts';
import { evidesk } from '../../support/cli.ts';
import { auditCheck, ownerSql } from '../../support/engine-rows.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';

const SECRET = 'Directors receive 40 days of annual leave per calendar year under the executive plan.';

/** The answer under test: each claim gets its own behaviour from the stub judge below. */
function answer(): string {
  const c = (marker: string, claim: string, quote: string, file: string, locator: Record<string, number> = {}) => ({ marker, claim, quote, source: { file }, locator });
  return JSON.stringify({
    format: 'evidence-desk/answer@1',
    question: 'What does the HR policy say?',
    answer: 'Overtime needs sign-off [1]. The portal is closed to leave requests [2]. Receipts are kept six years [3]. Expenses are repaid within 30 days [4]. Directors get 40 days [5]. Staff get a company car [6]. Employees receive 20 days [7].',
    citations: [
      // A faithful paraphrase the word rules find thin: the judge says supported.
      c('1', 'Staff need their manager to sign off extra hours before working them.', 'Overtime must be approved in writing by the line manager.', 'HR_Policy.pdf', { page: 2 }),
      // The opposite of the evidence: the judge says contradicted.
      c('2', 'Staff cannot use the staff portal to request leave.', 'Requests for leave are made through the staff portal.', 'HR_Policy.pdf', { page: 3 }),
      // The judge is too slow.
      c('3', 'Receipts must be kept for six years.', 'Receipts must be kept for six years.', 'HR_Policy.pdf', { page: 4 }),
      // The judge answers with something that is not the JSON asked for.
      c('4', 'Travel expenses are reimbursed within 30 days of a complete claim.', 'Travel expenses are reimbursed within 30 days of a complete claim.', 'HR_Policy.pdf', { page: 4 }),
      // A restricted source: nothing of it may reach the endpoint.
      c('5', 'Directors receive 40 days of annual leave.', SECRET, 'board-minutes.txt'),
      // A quote that is not in the source: whether it exists is never the judge's question.
      c('6', 'Every employee is given a company car.', 'Each employee is given a company car and a fuel card.', 'HR_Policy.pdf', { page: 3 }),
      // A changed number: the judge says supported, the deterministic contradiction stands.
      c('7', 'Employees receive 20 days of annual leave per calendar year.', 'Employees receive 14 days of annual leave per calendar year.', 'HR_Policy.pdf', { page: 3 }),
    ],
  });
}

function stubJudge(req: ChatRequest): ModelReply {
  const p = judgePrompt(req);
  if (!p) return { status: 400, body: 'not a judge prompt' };
  if (p.claim.startsWith('Staff need')) return `\`\`\`json\n${judgeAnswer('supported', 'Written approval by the line manager is sign-off before overtime.')}\n\`\`\``;
  if (p.claim.startsWith('Staff cannot')) return judgeAnswer('contradicted', 'The evidence says leave is requested through the portal.');
  if (p.claim.startsWith('Receipts')) return { content: judgeAnswer('supported', 'too late'), delayMs: 8000 };
  if (p.claim.startsWith('Travel')) return 'Sure! I think this claim is supported by the passage.';
  return judgeAnswer('supported', 'The evidence says so.');
}

/** The policy workspace with the board minutes ingested and restricted. */
async function judgeWorkspace(services: TestServices): Promise<PolicyWorkspace> {
  const ws = await policyWorkspace(services);
  const secret = writeFile(ws.docs, 'board-minutes.txt', `Board minutes (confidential)\n\n${SECRET}\n`);
  const id = (await ingestAll(services, [secret]))['board-minutes.txt'] ?? 0;
  const r = await services.dispatch('sources.setRestricted', { ids: [id], restricted: true });
  expect(r.ok).toBe(true);
  return ws;
}

describeEngines('the model judge against a local stub endpoint', (engine) => {
  let opened: Opened<PolicyWorkspace>;
  let services: TestServices;
  let server: Awaited<ReturnType<typeof startModelEndpoint>>;
  beforeEach(async () => {
    server = await startModelEndpoint(stubJudge);
    opened = await engine.open(judgeWorkspace, { model: { baseUrl: server.baseUrl, model: 'stub-judge', timeoutMs: 2500 }, as: 'reviewer' });
    services = opened.services;
  });
  afterEach(async () => {
    await server.close();
  });

  const byMarker = (d: AnswerDetail, m: string): CitationDetail => {
    const c = d.citations.find((x) => x.marker === m);
    if (!c?.result) throw new Error(`no result for [${m}]`);
    return c;
  };

  it('is off by default: an import asks the endpoint nothing', async () => {
    const reply = await services.dispatch('answers.import', { content: answer(), fileName: 'a.json' });
    if (!reply.ok) throw new Error(reply.error.message);
    expect(server.received).toEqual([]);
    expect((reply.value as AnswerDetail).citations.every((c) => c.result?.judge === null)).toBe(true);
  });

  it('support, contradiction, time-out, garbage, restricted source never sent; stored with the run and audited', async () => {
    const settings = await services.dispatch('workspace.updateSettings', { modelJudge: true });
    expect(settings.ok).toBe(true);
    const reply = await services.dispatch('answers.import', { content: answer(), fileName: 'a.json' });
    if (!reply.ok) throw new Error(reply.error.message);
    const d = reply.value as AnswerDetail;
    expect(d.run?.verifier).toBe('evidesk-verifier@1+model-judge@1');

    const supported = byMarker(d, '1');
    expect(supported.result?.judge).toEqual({ model: 'stub-judge', outcome: 'answered', verdict: 'supported', reason: 'Written approval by the line manager is sign-off before overtime.' });
    expect(supported.result?.verdict).toBe('supported');

    const contradicted = byMarker(d, '2');
    expect(contradicted.result?.judge).toMatchObject({ outcome: 'answered', verdict: 'contradicted' });
    expect(contradicted.result?.verdict).toBe('contradicted');

    const slow = byMarker(d, '3');
    expect(slow.result?.judge).toMatchObject({ outcome: 'timeout', verdict: null });
    expect(slow.result?.status).toBe('verified');
    expect(slow.result?.verdict).toBe('supported');
    expect(slow.result?.notes).toContain('the model judge did not answer in time; the deterministic verdict stands');

    const garbage = byMarker(d, '4');
    expect(garbage.result?.judge).toMatchObject({ outcome: 'malformed', verdict: null });
    expect(garbage.result?.judge?.reason).toMatch(/Sure! I think/);
    expect(garbage.result?.verdict).toBe('supported');
    expect(garbage.result?.notes).toContain('the model judge gave an answer that could not be read; the deterministic verdict stands');

    const restricted = byMarker(d, '5');
    expect(restricted.result?.status).toBe('verified');
    expect(restricted.result?.judge).toMatchObject({ outcome: 'restricted', verdict: null });
    // What the endpoint received, every byte of it: nothing of the restricted source, not even its claim.
    const sent = server.received.join('\n');
    expect(sent).not.toMatch(/Directors|executive plan|Board minutes|40 days/);
    expect(server.received.length).toBe(5);

    const missing = byMarker(d, '6');
    expect(missing.result?.status).toBe('not_found');
    expect(missing.result?.judge).toBeNull();
    expect(sent).not.toMatch(/company car/);

    const changedNumber = byMarker(d, '7');
    expect(changedNumber.result?.judge).toMatchObject({ outcome: 'answered', verdict: 'supported' });
    expect(changedNumber.result?.verdict).toBe('contradicted');

    // Exports carry the opinion: the verification@1 document of the stored run.
    const doc = VerificationResult.parse(d.verification);
    expect(doc.citations.find((c) => c.marker === '2')?.judge).toMatchObject({ verdict: 'contradicted', model: 'stub-judge' });
    expect(doc.citations.find((c) => c.marker === '6')?.judge).toBeUndefined();

    // The report exports carry it: JSON audit and Markdown (exports read the local copy: SQLite only).
    for (const format of opened.database ? [] : (['json', 'md'] as const)) {
      const target = path.join(services.dir, `report.${format}`);
      const exported = await services.dispatch('answers.export', { id: d.answer.id, format, path: target, excerpts: false });
      if (!exported.ok) throw new Error(exported.error.message);
      const text = fs.readFileSync(target, 'utf8');
      expect(text).toContain(format === 'json' ? '"reason": "The evidence says leave is requested through the portal."' : 'Model judge (stub-judge): contradicted: The evidence says leave is requested through the portal.');
    }

    // Append-only and in the audit chain.
    const rows = await ownerSql<{ id: number }>(opened, 'SELECT id FROM judge_opinions');
    expect(rows).toHaveLength(6);
    await expect(ownerSql(opened, 'UPDATE judge_opinions SET verdict = ? WHERE id = ?', ['supported', rows[0]?.id])).rejects.toThrow(/append-only/);
    expect(await auditCheck(opened)).toMatchObject({ ok: true });
    const [recorded] = await ownerSql<{ n: number }>(opened, "SELECT count(*) AS n FROM audit_log WHERE table_name = 'judge_opinions'");
    expect(recorded?.n).toBe(6);

    // Re-verification asks again and makes a new run; the first run's opinions stay as they were.
    const again = await services.dispatch('answers.verify', { id: d.answer.id });
    if (!again.ok) throw new Error(again.error.message);
    expect((again.value as AnswerDetail).runCount).toBe(2);
    expect((await ownerSql<{ n: number }>(opened, 'SELECT count(*) AS n FROM judge_opinions'))[0]?.n).toBe(12);
  });

  it('`judge: true` on a check without an endpoint is a coded error; with one, the check stores nothing', async () => {
    const bare = openTestServices();
    try {
      const r = await bare.dispatch('answers.check', { content: answer(), fileName: 'a.json', judge: true });
      expect(r.ok ? null : r.error.code).toBe('MODEL_NOT_CONFIGURED');
    } finally {
      bare.close();
    }
    const r = await services.dispatch('answers.check', { content: answer(), fileName: 'a.json', judge: true });
    if (!r.ok) throw new Error(r.error.message);
    const doc = VerificationResult.parse(r.value);
    expect(doc.citations.find((c) => c.marker === '1')?.judge?.verdict).toBe('supported');
    expect((await ownerSql<{ n: number }>(opened, 'SELECT count(*) AS n FROM judge_opinions'))[0]?.n).toBe(0);
  });
});

describe('the model judge from the command line', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  beforeEach(async () => {
    services = openTestServices();
    ws = await judgeWorkspace(services);
  });
  afterEach(() => services.close());

  it('evidesk verify --judge without a model endpoint says what to set, and verifies nothing', async () => {
    expect(process.env.EVIDESK_MODEL_BASE_URL).toBeUndefined();
    const file = writeFile(ws.docs, 'answer.json', answer());
    const run = await evidesk(services.workspaceDir, 'verify', file, '--judge');
    expect(run.code).toBe(3);
    expect(run.err).toMatch(/model judge needs a model endpoint.*EVIDESK_MODEL_BASE_URL/);
  });
});
