// Found by the answer-import fuzz property: a source named by a 60,000-character file name, or a
// claimed section that long, made SQLite refuse its LIKE pattern ("LIKE or GLOB pattern too
// complex") and answers.import failed with an uncoded INTERNAL error. Both now resolve to nothing.
// On both engines (issue 13): on PostgreSQL the ingested workspace is moved there first and the
// answers are imported there as a reviewer (a 60,000-character unknown reference included).
import path from 'node:path';
import { expect, it } from 'vitest';
import { ownerSql } from '../../support/engine-rows.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, policyWorkspace } from '../../support/policy-workspace.ts';

describeEngines('answer references longer than SQLite LIKE patterns may be', (engine) => {
  // One workspace per engine: the policy and rules.md ingested, then moved.
  let shared: Promise<Opened<unknown>> | undefined;
  const open = () =>
    (shared ??= engine.open(
      async (s) => {
        await policyWorkspace(s);
        const rules = writeFile(path.join(s.dir, 'docs'), 'rules.md', '# Leave\n\nRequests are approved by the line manager.\n\n# Expenses\n\nRequests are approved by the line manager.\n');
        await s.ingest.ingest({ paths: [rules] });
      },
      { as: 'reviewer', scope: 'suite' },
    ));

  it('a 60,000-character file name and section import as an unknown source and no section', async () => {
    const { services } = await open();
    const long = 'a'.repeat(60_000);
    const content = nativeAnswer([
      { marker: '1', claim: 'Leave is 14 days.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: `${long}.pdf` } },
      { marker: '2', claim: 'Leave is 14 days.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { section: long } },
    ]);
    const reply = await services.dispatch('answers.import', { content, fileName: 'long.json' });
    expect(reply.ok, JSON.stringify(reply).slice(0, 300)).toBe(true);
    const detail = reply.ok ? (reply.value as { citations: { result: { status: string } | null }[] }) : null;
    expect(detail?.citations.map((c) => c.result?.status)).toEqual(['source_unknown', 'verified']);
  });

  it('a claimed section still picks the occurrence under its heading (instr finds it as LIKE did)', async () => {
    const opened = await open();
    const { services } = opened;
    const quote = 'Requests are approved by the line manager.';
    const headings: (string | null)[] = [];
    for (const section of ['LEAVE', 'expenses']) {
      const content = nativeAnswer([{ marker: '1', claim: 'Requests are approved.', quote, source: { file: 'rules.md' }, locator: { section } }]);
      const reply = await services.dispatch('answers.import', { content, fileName: `${section}.json` });
      const segmentId = reply.ok ? (reply.value as { citations: { result: { segmentId: number | null } | null }[] }).citations[0]?.result?.segmentId : null;
      const [row] = await ownerSql<{ heading_path: string | null }>(opened, 'SELECT heading_path FROM segments WHERE id = ?', [segmentId ?? 0]);
      headings.push(row?.heading_path ?? null);
    }
    expect(headings.map((h) => h?.includes('Leave') ? 'Leave' : h?.includes('Expenses') ? 'Expenses' : h)).toEqual(['Leave', 'Expenses']);
  });
});
