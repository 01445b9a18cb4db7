import { describe, expect, it } from 'vitest';
import type { ExportResult } from '../../../shared/contract/export-schemas.ts';
import { baseName, doneSummary, formatBytes, FORMAT_CHOICES } from '../../../renderer/src/features/reports/selectors.ts';

const result = (summary: Partial<ExportResult['summary']>, verifiedFirst = false): ExportResult => ({
  path: '/home/me/reports/hr.html',
  format: 'html',
  bytes: 11_400,
  contentHash: 'x',
  runId: 1,
  verifiedFirst,
  summary: { total: 3, included: 3, unresolved: 0, missingSources: 0, ...summary },
});

describe('export dialog selectors', () => {
  it('offers every export format once', () => {
    expect(FORMAT_CHOICES.map((f) => f.format).sort()).toEqual(['bib', 'csv', 'html', 'json', 'md', 'pdf']);
  });

  it('names the saved file whichever separator the platform uses', () => {
    expect(baseName('/home/me/reports/hr.html')).toBe('hr.html');
    expect(baseName('C:\\Users\\me\\hr.pdf')).toBe('hr.pdf');
    expect(formatBytes(900)).toBe('900 bytes');
    expect(formatBytes(11_400)).toBe('11.1 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });

  it('says what was saved in sentences, adding only what the analyst needs to know', () => {
    expect(doneSummary(result({}))).toBe('Saved hr.html (11.1 KB) with 3 of 3 citations.');
    expect(doneSummary(result({ included: 1, unresolved: 1, missingSources: 2 }, true))).toBe(
      "Saved hr.html (11.1 KB) with 1 of 3 citations. The answer had not been verified, so it was verified first. 1 citation still needs a decision. 2 sources were missing; the report uses the workspace's snapshot.",
    );
  });
});
