import { describe, expect, it } from 'vitest';
import { renderReport, TEXT_REPORT_FORMATS } from '../../../electron/services/export/render-report.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import { fixtureReport } from './report-fixture.ts';

describe('renderReport', () => {
  const report = fixtureReport();

  it('renders every text format from the same model, each carrying the report content', async () => {
    const out = Object.fromEntries(await Promise.all(TEXT_REPORT_FORMATS.map(async (f) => [f, await renderReport(report, f)] as const)));
    expect(Object.values(out).map((r) => r.extension)).toEqual(['md', 'html', 'json', 'csv', 'bib']);
    expect(reportFromJson(out.json?.content ?? '')).toEqual(report);
    for (const f of ['md', 'html'] as const) expect(out[f]?.content).toContain(report.contentHash);
    for (const s of report.sources) {
      for (const f of ['md', 'html', 'csv'] as const) expect(out[f]?.content, `${f} names ${s.id}`).toContain(s.sha256);
      expect(out.bib?.content).toContain(`@misc{${s.id},`);
    }
    expect(out.csv?.content.charCodeAt(0)).toBe(0xfeff);
  });

  it('writes a styled bibliography as plain text', async () => {
    const ieee = await renderReport(report, 'bib', 'ieee');
    expect(ieee.extension).toBe('txt');
    expect(ieee.content.startsWith('[1] J. Smith and J. Doe')).toBe(true);
  });
});
