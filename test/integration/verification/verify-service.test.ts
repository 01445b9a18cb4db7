/**
 * Citation verification end to end (DESIGN.md §5), on both engines (issue 13, Done-when 1). On
 * PostgreSQL the ingested workspace is moved there first; answers are then imported and verified
 * through the services as a reviewer, so the answer, its citations, runs, results, review rows and
 * their audit entries are written to PostgreSQL and read back from it, and the append-only
 * triggers and the chain walk are PostgreSQL's. Sources are still ingested locally before the
 * move (ingest is not on the store interface here), so a source "ingested since" an import, or a
 * new version of one, is ingested in the preparation after that import, before the move.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { VerificationResult } from '../../../shared/verification/result-schema.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { auditCheck, ownerSql } from '../../support/engine-rows.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { ingestAll, nativeAnswer, POLICY_PAGES, policyWorkspace, type PolicyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

async function importFile(services: TestServices, file: string): Promise<AnswerDetail> {
  const reply = await services.dispatch('answers.import', readAnswerFile(file));
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.value as AnswerDetail;
}

const LEAVE = nativeAnswer([{ marker: '1', claim: 'Leave is 14 days.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' } }]);

/** The nine kinds of citation the first test reads back, given the policy's SHA-256. */
function kindsAnswer(policySha256: string | undefined): string {
  return nativeAnswer([
    { marker: '1', claim: 'Employees receive 14 days of annual leave per year.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
    { marker: '2', claim: 'Overtime needs written approval from the line manager.', quote: 'Overtime must be approved in writing by the line manager.', source: { file: 'hr_policy' }, locator: { page: 1 } },
    { marker: '3', claim: 'Staff may work from home on Fridays.', quote: 'Employees may work from home on Fridays without approval.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
    { marker: '4', claim: 'Employees receive 15 days of annual leave.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
    { marker: '5', claim: 'The 2023 budget was approved.', quote: 'The budget for 2023 was approved by the board.', source: { file: 'Budget_2023.xlsx' }, locator: { page: 2 } },
    { marker: '6', claim: 'Receipts must be kept for six years.', quote: null, source: { file: 'HR_Policy.pdf' }, method: 'paraphrase' },
    { marker: '7', claim: 'The probation period lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
    { marker: '8', claim: 'Unused leave lapses on 31 March.', quote: '“UNUSED leave  lapses on 31 March”', source: { sha256: policySha256 }, locator: { page: 3 } },
    { marker: '9', claim: 'Travel expenses are reimbursed within 30 days.', quote: 'Travel expences are reimbursd within 30 days of a complete claim.', source: { file: 'HR_Policy.pdf' }, locator: { page: 4 } },
  ]);
}

interface Prepared {
  ws: PolicyWorkspace;
  kinds: AnswerDetail;
  appendOnly: AnswerDetail;
}

describeEngines('citation verification, end to end through the services', (engine) => {
  // Tests that read share one workspace per engine, its answers imported through the engine in use; the tamper test opens its own.
  let shared: Promise<Opened<Prepared>> | undefined;
  const open = () =>
    (shared ??= (async () => {
      const opened = await engine.open(
        async (s) => {
          const ws = await policyWorkspace(s);
          return { ws, policySha256: s.sources.get(ws.ids['HR_Policy.pdf'] ?? 0)?.sha256 };
        },
        { as: 'reviewer', scope: 'suite' },
      );
      const { ws, policySha256 } = opened.prepared;
      const kinds = await importFile(opened.services, writeFile(ws.docs, 'answer.json', kindsAnswer(policySha256)));
      const appendOnly = await importFile(opened.services, writeFile(ws.docs, 'a.json', LEAVE));
      return { ...opened, prepared: { ws, kinds, appendOnly } };
    })());

  it('gives each kind of citation its status, verdict and true location', async () => {
    const { services, prepared } = await open();
    expect(services.evidence.engine).toBe(engine.name);
    const ws = prepared.ws;
    const detail = await callHandler<AnswerDetail>(services, 'answers.detail', { id: prepared.kinds.answer.id });
    // Read back, the answer is what its import replied.
    expect(detail).toEqual(prepared.kinds);
    const v = VerificationResult.parse(detail.verification);
    const by = Object.fromEntries(v.citations.map((c) => [c.marker, c]));

    // A verified quote, at exactly the offsets of the page text.
    expect(by['1']).toMatchObject({ status: 'verified', verdict: 'supported', score: 1, match: { file: 'HR_Policy.pdf', page: 3, method: 'exact' } });
    const page3 = await services.dispatch('sources.pageText', { id: ws.ids['HR_Policy.pdf'] ?? 0, page: 3 });
    const text3 = page3.ok ? (page3.value as { text: string }).text : '';
    const m1 = by['1']?.match;
    expect(text3.slice(m1?.start, m1?.end)).toBe('Employees receive 14 days of annual leave per calendar year.');

    // Wrong claimed page: found on its true page, matched by file name without extension or case.
    expect(by['2']).toMatchObject({ status: 'verified_elsewhere', match: { page: 2 } });
    expect(by['2']?.notes.join(' ')).toMatch(/p\. 2.*claimed p\. 1/);

    expect(by['3']).toMatchObject({ status: 'not_found', verdict: 'not_found', score: 0, match: null });
    expect(by['4']).toMatchObject({ status: 'verified', verdict: 'contradicted' });
    expect(by['4']?.notes.join(' ')).toMatch(/15 days.*14 days/);
    expect(by['5']).toMatchObject({ status: 'source_unknown', verdict: 'not_found', match: null });
    expect(by['5']?.notes.join(' ')).toMatch(/Budget_2023\.xlsx/);
    expect(by['6']).toMatchObject({ status: 'no_quote', match: null });
    expect(by['6']?.notes.join(' ')).toMatch(/closest passage.*p\. 4/);
    expect(by['7']).toMatchObject({ status: 'verified', verdict: 'supported', match: { file: 'onboarding-notes.txt', line: 6, method: 'exact' } });
    expect(by['8']).toMatchObject({ status: 'verified', match: { method: 'normalised', page: 3, text: 'Unused leave lapses on 31 March' } });
    expect(by['9']?.status).toBe('verified');
    expect(by['9']?.match?.method).toBe('fuzzy');
    expect(by['9']?.score).toBeGreaterThanOrEqual(0.9);
    expect(by['9']?.score).toBeLessThan(1);

    expect(v.summary.total).toBe(9);
    expect(v.summary.byStatus).toMatchObject({ verified: 5, verified_elsewhere: 1, not_found: 1, source_unknown: 1, no_quote: 1, partial: 0 });
    expect(v.riskFlags.map((f) => f.code)).toEqual(expect.arrayContaining(['missing_evidence', 'contradiction']));
    expect(v.riskFlags.find((f) => f.code === 'contradiction')?.markers).toEqual(['4']);

    // The stored result keeps the anchor: quote, 32 characters of prefix and suffix, position and page.
    const c1 = detail.citations.find((c) => c.marker === '1');
    expect(c1?.result).toMatchObject({ status: 'verified', page: 3, pageLabel: null, method: 'exact', quote: 'Employees receive 14 days of annual leave per calendar year.' });
    expect(c1?.result?.prefix).toBe(text3.slice(Math.max(0, (m1?.start ?? 0) - 32), m1?.start));
    expect(c1?.result?.suffix).toBe(text3.slice(m1?.end, (m1?.end ?? 0) + 32));
    expect(c1?.result?.suffix?.length).toBe(32);
    // The unknown source is an explicit record, not a NULL.
    const c5 = detail.citations.find((c) => c.marker === '5');
    expect(c5?.source).toBeNull();
    expect(JSON.parse(c5?.unknownSource ?? '{}')).toEqual({ file: 'Budget_2023.xlsx' });
  });

  it('rejects UPDATE and DELETE of citations, runs, results and reviews (append-only triggers)', async () => {
    const opened = await open();
    const { services, prepared } = opened;
    const cid = prepared.appendOnly.citations[0]?.id ?? 0;
    await callHandler(services, 'answers.review', { citationId: cid, decision: 'accepted' });
    // As the tables' owner on PostgreSQL: grants aside, the triggers refuse.
    await expect(ownerSql(opened, "UPDATE citations SET claim = 'changed' WHERE id = ?", [cid])).rejects.toThrow(/append-only/);
    await expect(ownerSql(opened, 'DELETE FROM citations WHERE id = ?', [cid])).rejects.toThrow(/append-only/);
    await expect(ownerSql(opened, 'UPDATE citation_results SET score = 0')).rejects.toThrow(/append-only/);
    await expect(ownerSql(opened, 'DELETE FROM verification_runs')).rejects.toThrow(/append-only/);
    await expect(ownerSql(opened, "UPDATE review_decisions SET decision = 'rejected'")).rejects.toThrow(/append-only/);
    await expect(ownerSql(opened, 'DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    const after = await callHandler<AnswerDetail>(services, 'answers.detail', { id: prepared.appendOnly.answer.id });
    expect(after.citations[0]).toMatchObject({ claim: 'Leave is 14 days.', review: { decision: 'accepted' } });
  });

  it('records review decisions as superseding rows and keeps an audit hash chain that detects tampering', async () => {
    // A workspace of its own: this test breaks its chain.
    const opened = await engine.open((s) => policyWorkspace(s), { as: 'reviewer' });
    const { services } = opened;
    const detail = await importFile(services, writeFile(opened.prepared.docs, 'a.json', LEAVE));
    const cid = detail.citations[0]?.id ?? 0;
    const r1 = await services.dispatch('answers.review', { citationId: cid, decision: 'flagged', note: 'check the 2024 version' });
    const r2 = await services.dispatch('answers.review', { citationId: cid, decision: 'accepted' });
    expect(r1.ok && r2.ok).toBe(true);
    const second = r2.ok ? (r2.value as { id: number; supersedesId: number | null }) : null;
    const first = r1.ok ? (r1.value as { id: number }) : null;
    expect(second?.supersedesId).toBe(first?.id);
    expect((await callHandler<AnswerDetail>(services, 'answers.detail', { id: detail.answer.id })).citations[0]?.review).toMatchObject({ decision: 'accepted' });
    const missing = await services.dispatch('answers.review', { citationId: 99999, decision: 'accepted' });
    expect(missing.ok ? null : missing.error.code).toBe('CITATION_NOT_FOUND');

    expect(await auditCheck(opened)).toMatchObject({ ok: true });
    // Action entries (row entries of the whole record have a table; audit-chain.test.ts covers them).
    const actionRows = await ownerSql<{ id: number; action: string }>(opened, 'SELECT id, action FROM audit_log WHERE table_name IS NULL ORDER BY id');
    expect(actionRows.map((r) => r.action)).toEqual(['answer.import', 'answer.verify', 'citation.review', 'citation.review']);
    const reviewEntry = actionRows[2]?.id ?? 0;

    // Tamper through a connection of our own: drop the guard, edit a row's payload.
    if (opened.database) {
      await ownerSql(opened, 'ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
      await ownerSql(opened, "UPDATE audit_log SET payload = jsonb_set(payload::jsonb, '{decision}', '\"rejected\"')::text WHERE id = ?", [reviewEntry]);
    } else {
      const own = new Database(path.join(services.workspaceDir, 'workspace.sqlite'));
      own.exec('DROP TRIGGER audit_log_no_update');
      own.prepare("UPDATE audit_log SET payload = json_set(payload, '$.decision', 'rejected') WHERE id = ?").run(reviewEntry);
      own.close();
    }
    const broken = await auditCheck(opened);
    expect(broken.ok).toBe(false);
    expect(broken.brokenAt).toMatchObject({ id: reviewEntry, kind: 'edited' });
    expect(broken.brokenAt?.reason).toMatch(/changed after it was written/);
  });

  it('re-verifies as a new run, leaves the old run untouched, and resolves a source ingested since', async () => {
    // The import and the source ingested after it come before the move (ingest is local here).
    const opened = await engine.open(
      async (s) => {
        const ws = await policyWorkspace(s);
        const file = writeFile(
          ws.docs,
          'answer.json',
          nativeAnswer([
            { marker: '1', claim: 'Leave is 14 days.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
            { marker: '2', claim: 'The canteen opens at 8.', quote: 'The canteen opens at 8 am on weekdays.', source: { file: 'canteen.txt' } },
          ]),
        );
        const first = await importFile(s, file);
        await ingestAll(s, [writeFile(ws.docs, 'canteen.txt', 'Facilities\n\nThe canteen opens at 8 am on weekdays.\n')]);
        return first;
      },
      { as: 'reviewer' },
    );
    const { services, prepared: first } = opened;
    const { answers } = services.evidence;
    expect(first.runCount).toBe(1);
    const run1 = first.run?.id ?? 0;
    const before = JSON.stringify(await answers.results(run1));
    expect(first.citations[1]?.result?.status).toBe('source_unknown');

    const second = await callHandler<AnswerDetail>(services, 'answers.verify', { id: first.answer.id });
    expect(second.runCount).toBe(2);
    expect(second.run?.id).not.toBe(run1);
    expect(second.citations[1]?.result).toMatchObject({ status: 'verified', runId: second.run?.id });
    expect(JSON.stringify(await answers.results(run1))).toBe(before);
    expect((await answers.runs(first.answer.id)).map((r) => r.id)).toEqual([run1, second.run?.id]);
    expect(await auditCheck(opened)).toMatchObject({ ok: true });
  });

  it('flags an outdated source and re-anchors the quote in its new version', async () => {
    const opened = await engine.open(
      async (s) => {
        const ws = await policyWorkspace(s);
        const file = writeFile(
          ws.docs,
          'a.json',
          nativeAnswer([{ marker: '1', claim: 'Unused leave lapses on 31 March.', quote: 'Unused leave lapses on 31 March of the following year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } }]),
        );
        const detail = await importFile(s, file);
        // Version 2 gains a page up front: the leave section moves from p. 3 to p. 4.
        const v2 = [{ lines: ['Human Resources Policy, version 4', 'Changes since version 3 are listed on this page.'] }, ...POLICY_PAGES];
        fs.writeFileSync(ws.policy, await makePdf(v2, 'HR Policy v4'));
        const ingested = await s.ingest.ingest({ paths: [ws.policy] });
        expect(ingested.files[0]).toMatchObject({ ok: true, outcome: 'new_version' });
        return detail;
      },
      { as: 'reviewer' },
    );
    const { services, prepared: detail } = opened;
    expect(detail.citations[0]?.result?.page).toBe(3);

    const again = await callHandler<AnswerDetail>(services, 'answers.verify', { id: detail.answer.id });
    expect(again.citations[0]?.result?.status).toBe('verified');
    expect(again.run?.riskFlags.map((f) => f.code)).toContain('outdated_source');
    expect(again.citations[0]?.result?.notes.join(' ')).toMatch(/newer version.*there the quote is on p\. 4/);

    const moved = await services.dispatch('answers.reanchor', { citationId: detail.citations[0]?.id ?? 0 });
    expect(moved.ok).toBe(true);
    expect(moved.ok && moved.value).toMatchObject({ found: true, moved: true, from: { page: 3 }, to: { page: 4, status: 'verified_elsewhere', method: 'exact' } });
    expect(moved.ok && (moved.value as { message: string }).message).toMatch(/p\. 3 → p\. 4/);
  });

  it('finds a quote that runs across a page break and reports where it continues', async () => {
    const pages = [
      { lines: ['Report on facilities', 'The new building will open in the spring and the old site'] },
      { lines: ['will close at the end of the same year.', 'Staff will be consulted about the move.'] },
    ];
    const opened = await engine.open(
      async (s) => {
        const ws = await policyWorkspace(s);
        await ingestAll(s, [writeFile(ws.docs, 'facilities.pdf', await makePdf(pages))]);
        return ws;
      },
      { as: 'reviewer' },
    );
    const { services, prepared: ws } = opened;
    const answerFile = writeFile(
      ws.docs,
      'span.json',
      nativeAnswer([{ marker: '1', claim: 'The old site closes at year end.', quote: 'the old site will close at the end of the same year', source: { file: 'facilities.pdf' }, locator: { page: 1 } }]),
    );
    const v = VerificationResult.parse(await callHandler(services, 'answers.check', readAnswerFile(answerFile)));
    expect(v.citations[0]).toMatchObject({ status: 'verified', match: { page: 1 } });
    expect(v.citations[0]?.notes.join(' ')).toMatch(/runs on to p\. 2/);
    // Imported, the quote's place is stored as found and read back from the engine in use.
    const stored = await importFile(services, answerFile);
    expect(stored.citations[0]?.result).toMatchObject({ status: 'verified', page: 1 });
    expect(stored.verification?.citations[0]?.notes.join(' ')).toMatch(/runs on to p\. 2/);
  });
});
