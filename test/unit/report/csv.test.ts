import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, renderCsv, unguardCsvCell } from '../../../electron/services/export/report-csv.ts';
import { readingOrder } from '../../../shared/report/reading-order.ts';
import { FORMULA_QUOTE, fixtureReport } from './report-fixture.ts';

describe('report CSV', () => {
  const report = fixtureReport();
  const csv = renderCsv(report);
  const bytes = Buffer.from(csv, 'utf8');

  it('is UTF-8 with a byte order mark and CRLF records', () => {
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.slice(1).startsWith(`${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('round-trips through a CSV parser: one row per citation, every field as in the model', () => {
    const parsed = Papa.parse<Record<string, string>>(bytes.toString('utf8'), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    const notes = readingOrder(report).notes;
    expect(parsed.data).toHaveLength(notes.length);
    parsed.data.forEach((row, i) => {
      const c = notes[i];
      if (!c) throw new Error('row without citation');
      const s = report.sources.find((x) => x.id === c.source);
      expect(row.footnote).toBe(String(i + 1));
      expect(row.citation).toBe(c.id);
      expect(unguardCsvCell(row.claim ?? '')).toBe(c.claim);
      expect(unguardCsvCell(row.quote ?? '')).toBe(c.quote ?? '');
      expect(row.source_sha256).toBe(s?.sha256 ?? '');
      expect(row.status).toBe(c.status);
      expect(row.verdict).toBe(c.verdict);
      expect(Number(row.score)).toBe(c.score);
      expect(row.page).toBe(c.match?.page == null ? '' : String(c.match.page));
      expect(row.start).toBe(c.match ? String(c.match.start) : '');
      expect(row.decision).toBe(c.review.decision);
      expect(row.decision_note).toBe(c.review.note ?? '');
      expect((row.decision_history ?? '').split('\n').filter((l) => l.length > 0)).toHaveLength(c.review.history.length);
    });
  });

  it('keeps a formula-like quote as text for spreadsheets (leading apostrophe), with its quotes, commas and line break', () => {
    const row = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data.find((r) => r.citation === 'C3');
    expect(row?.quote).toBe(`'${FORMULA_QUOTE}\nsecond line`);
    expect(unguardCsvCell(row?.quote ?? '')).toBe(`${FORMULA_QUOTE}\nsecond line`);
    expect(csv).toContain('"\'=HYPERLINK(""http://example.invalid"",""click""), then ""sign"", here\nsecond line"');
  });
});
