import { describe, expect, it } from 'vitest';
import { firstMarked, SNIPPET_CLOSE as C, SNIPPET_OPEN as O, toFtsQuery } from '../../../shared/search/fts-query.ts';
import { markMatches, toTsQuery } from '../../../shared/search/ts-query.ts';

describe('the PostgreSQL query and marking (issue 13)', () => {
  it('builds the tsquery from the same parts as the FTS5 query: words AND, phrases adjacent, a trailing * a prefix', () => {
    expect(toTsQuery('annual "leave per year" lap*')).toBe("'annual' & ('leave' <-> 'per' <-> 'year') & 'lap':*");
    expect(toFtsQuery('annual "leave per year" lap*')).toBe('"annual" "leave per year" "lap"*');
    // Operators and quotes typed by the user are words or nothing, never syntax.
    expect(toTsQuery("it's & | ! <-> :*")).toBe("'it' & 's'");
    expect(toTsQuery('"" ( )')).toBeNull();
  });

  it('marks matches as FTS5 highlight() does: a phrase as one run, overlapping matches merged, case and accents folded', () => {
    expect(markMatches('Employees receive 14 days of annual leave per calendar year.', '"annual leave per calendar"')).toBe(
      `Employees receive 14 days of ${O}annual leave per calendar${C} year.`,
    );
    expect(markMatches('The Überweisung and the RÉSUMÉ.', 'uberweisung resume')).toBe(`The ${O}Überweisung${C} and the ${O}RÉSUMÉ${C}.`);
    expect(markMatches('audit trail audit', '"audit trail" "trail audit"')).toBe(`${O}audit trail audit${C}`);
    expect(markMatches('reached the café', 'reach*')).toBe(`${O}reached${C} the café`);
    expect(markMatches('nothing here', 'absent')).toBeNull();
    // The first run's offsets are the phrase's offsets in the unmarked text.
    const text = 'xx annual leave per calendar';
    expect(firstMarked(markMatches(text, '"annual leave"')!)).toEqual({ start: 3, end: 15 });
    expect(text.slice(3, 15)).toBe('annual leave');
  });
});
