import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { LinkResolution } from '../../../shared/contract/link-schemas.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, withPolicyWorkspace, type PolicyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

const CITATIONS = [
  { marker: '1', claim: 'Leave is 14 days.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
];

describe('links in every report format (issue 17)', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((o) => ({ services, ws } = o));

  it('JSON, CSV and PDF carry each citation’s desk link and file link; a missing file says so', async () => {
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(writeFile(ws.docs, 'answer.json', nativeAnswer(CITATIONS))));
    const out = (ext: string) => path.join(services.dir, `report.${ext}`);
    await callHandler(services, 'answers.export', { id: detail.answer.id, format: 'json', path: out('json') });
    const report = reportFromJson(fs.readFileSync(out('json'), 'utf8'));
    const [pdfCitation, textCitation] = report.citations;
    expect(pdfCitation!.fileLink).toBe(`file://${ws.policy}#page=3`);
    expect(textCitation!.fileLink).toBe(`file://${ws.notes}`);
    for (const c of report.citations) {
      const opened = await callHandler<LinkResolution>(services, 'links.resolve', { link: c.link });
      expect(opened).toMatchObject({ state: 'found', how: 'offsets' });
    }

    await callHandler(services, 'answers.export', { id: detail.answer.id, format: 'pdf', path: out('pdf') });
    const pdf = fs.readFileSync(out('pdf')).toString('latin1');
    // Chromium keeps the report's links as link annotations of the PDF.
    expect(pdf).toContain('(evidesk://open?sha256=');
    expect(pdf).toContain(`(file://${ws.policy}#page=3)`);

    fs.rmSync(ws.notes);
    await callHandler(services, 'answers.export', { id: detail.answer.id, format: 'csv', path: out('csv') });
    const rows = Papa.parse<Record<string, string>>(fs.readFileSync(out('csv'), 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((r) => r.file_link)).toEqual([`file://${ws.policy}#page=3`, 'file moved or deleted']);
    expect(rows.every((r) => (r.link ?? '').startsWith('evidesk://open?sha256='))).toBe(true);
  });
});
