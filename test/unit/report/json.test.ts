import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/contract/errors.ts';
import { checkContentHash } from '../../../shared/report/content-hash.ts';
import { reportFromJson, reportToJson } from '../../../shared/report/json.ts';
import { Report } from '../../../shared/report/schema.ts';
import { fixtureReport, sha256Hex } from './report-fixture.ts';

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('report JSON', () => {
  const report = fixtureReport();
  const text = reportToJson(report);

  it('is the model itself: it validates and round-trips, hash intact', () => {
    expect(text.endsWith('}\n')).toBe(true);
    expect(Report.safeParse(JSON.parse(text)).success).toBe(true);
    const back = reportFromJson(text, 'report.json');
    expect(back).toEqual(report);
    expect(checkContentHash(back, sha256Hex).holds).toBe(true);
    // A byte order mark some editors add is tolerated.
    expect(reportFromJson(`\uFEFF${text}`)).toEqual(report);
  });

  it('refuses a file that is not JSON, not the format, or not consistent, naming the file and the problem', () => {
    const notJson = errorOf(() => reportFromJson('{"format":', 'broken.json'));
    expect(notJson.code).toBe('REPORT_INVALID');
    expect(notJson.message).toMatch(/^broken\.json is not JSON/);

    const raw = JSON.parse(text) as Record<string, unknown>;
    const noHash = errorOf(() => reportFromJson(JSON.stringify({ ...raw, contentHash: 'xyz' }), 'r.json'));
    expect(noHash.code).toBe('REPORT_INVALID');
    expect(noHash.message).toContain('contentHash');

    const extra = errorOf(() => reportFromJson(JSON.stringify({ ...raw, extra: 1 }), 'r.json'));
    expect(extra.message).toContain('extra');

    const dangling = structuredClone(report);
    (dangling.citations[0] as { source: string | null }).source = 'S9';
    const e = errorOf(() => reportFromJson(JSON.stringify(dangling), 'r.json'));
    expect(e.message).toBe('r.json is not a consistent report: citation C1 names source S9, which the report lacks.');
  });

  it('validates on write too', () => {
    const bad = structuredClone(report);
    bad.summary.included = 3;
    expect(errorOf(() => reportToJson(bad)).message).toContain('summary says 3 citations are included');
    const wrongType = { ...report, citations: [{ ...report.citations[0], status: 'maybe' }] } as unknown as Report;
    expect(errorOf(() => reportToJson(wrongType)).code).toBe('REPORT_INVALID');
  });
});
