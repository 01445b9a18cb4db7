// Found by the answer-import fuzz property: a source named by a 60,000-character file name, or a
// claimed section that long, made SQLite refuse its LIKE pattern ("LIKE or GLOB pattern too
// complex") and answers.import failed with an uncoded INTERNAL error. Both now resolve to nothing.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, withPolicyWorkspace } from '../../support/policy-workspace.ts';
import type { TestServices } from '../../support/workspace.ts';

describe('answer references longer than SQLite LIKE patterns may be', () => {
  let services: TestServices;
  withPolicyWorkspace((opened) => ({ services } = opened));

  it('a 60,000-character file name and section import as an unknown source and no section', async () => {
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
    const rules = writeFile(path.join(services.dir, 'docs'), 'rules.md', '# Leave\n\nRequests are approved by the line manager.\n\n# Expenses\n\nRequests are approved by the line manager.\n');
    await services.ingest.ingest({ paths: [rules] });
    const quote = 'Requests are approved by the line manager.';
    const headings: (string | null)[] = [];
    for (const section of ['LEAVE', 'expenses']) {
      const content = nativeAnswer([{ marker: '1', claim: 'Requests are approved.', quote, source: { file: 'rules.md' }, locator: { section } }]);
      const reply = await services.dispatch('answers.import', { content, fileName: `${section}.json` });
      const segmentId = reply.ok ? (reply.value as { citations: { result: { segmentId: number | null } | null }[] }).citations[0]?.result?.segmentId : null;
      const row = services.db.prepare('SELECT heading_path FROM segments WHERE id = ?').get(segmentId ?? 0) as { heading_path: string | null } | undefined;
      headings.push(row?.heading_path ?? null);
    }
    expect(headings.map((h) => h?.includes('Leave') ? 'Leave' : h?.includes('Expenses') ? 'Expenses' : h)).toEqual(['Leave', 'Expenses']);
  });
});
