import { describe, expect, it } from 'vitest';
import type { ExportResult } from '../../../shared/contract/export-schemas.ts';
import { baseName, doneSummary, formatBytes, FORMAT_CHOICES, progressSentence } from '../../../renderer/src/features/reports/selectors.ts';

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

  it('says what a running export is doing, with the excerpt count in words an analyst reads', () => {
    const at = (phase: 'verifying' | 'excerpts' | 'printing', done = 0, total = 0) => ({ type: 'export.progress' as const, jobId: 'j', phase, done, total });
    expect(progressSentence(null, 'html')).toBe('Starting the export…');
    expect(progressSentence(null, 'pdf')).toContain('printed from the HTML report');
    expect(progressSentence(at('verifying'), 'html')).toBe('Verifying the answer first: it has no verification yet…');
    expect(progressSentence(at('excerpts', 1250, 2000), 'html')).toBe('Making the evidence excerpts: 1,250 of 2,000 citations done…');
    expect(progressSentence(at('excerpts', 0, 1), 'html')).toBe('Making the evidence excerpts: 0 of 1 citation done…');
    expect(progressSentence(at('printing'), 'pdf')).toBe('Printing the PDF from the HTML report…');
  });
});
