import { describe, expect, it } from 'vitest';
import { citationsText, healthLabel, healthSummary, needsRelink, relinkManySummary, searchSummary, suggestionsFolder } from '../../../renderer/src/features/relink/selectors.ts';

describe('relink selectors', () => {
  it('labels every health with an icon and a word, never colour alone', () => {
    expect(['ok', 'modified', 'missing', 'unchecked'].map((h) => healthLabel(h as 'ok')).map((l) => `${l.icon} ${l.text}`)).toEqual([
      '✓ ok',
      '✎ modified',
      '✖ missing',
      '? not checked',
    ]);
    expect(needsRelink('missing')).toBe(true);
    expect(needsRelink('modified')).toBe(true);
    expect(needsRelink('ok')).toBe(false);
    expect(needsRelink('unchecked')).toBe(false);
  });

  it('summarises the library health, saying nothing before any check', () => {
    expect(healthSummary([])).toBe('');
    expect(healthSummary(['unchecked'])).toBe('');
    expect(healthSummary(['ok', 'ok'])).toBe('Checked 2 files: 2 ok.');
    expect(healthSummary(['ok', 'missing', 'modified', 'unchecked'])).toBe('Checked 3 files: 1 ok, 1 modified, 1 missing, 1 not checked.');
    expect(healthSummary(['missing'])).toBe('Checked 1 file: 0 ok, 1 missing.');
  });

  it('words citations, searches and batch relinks', () => {
    expect(citationsText(0)).toBe('No citations depend on it.');
    expect(citationsText(1)).toBe('1 citation depends on it.');
    expect(citationsText(3)).toBe('3 citations depend on it.');
    const search = { dir: '/d', examined: 12, hashed: 2, truncated: false, results: [{ id: 1, fileName: 'a.pdf', matches: ['/d/x/a.pdf'] }] };
    expect(searchSummary(search)).toBe('Looked at 12 files under /d; 1 file with the same bytes:');
    expect(searchSummary({ ...search, truncated: true, results: [{ id: 1, fileName: 'a.pdf', matches: [] }] })).toBe(
      'Looked at 12 files under /d (stopped at the search limit: try a narrower folder); none has the same bytes.',
    );
    expect(relinkManySummary({ results: [{ ok: true, id: 1, path: '/a', previousPath: null }, { ok: true, id: 2, path: '/b', previousPath: null }] })).toBe('✓ Relinked 2 more sources.');
    expect(
      relinkManySummary({ results: [{ ok: true, id: 1, path: '/a', previousPath: null }, { ok: false, id: 2, path: '/b', error: { code: 'HASH_MISMATCH', message: 'm' } }] }),
    ).toBe('Relinked 1 of 2; 1 could not be relinked:');
  });

  it('names the folder holding the relinked file and every suggestion', () => {
    const s = (p: string) => ({ id: 2, fileName: 'b', fromPath: null, path: p });
    expect(suggestionsFolder([s('/new/case/b.pdf')], '/new/case/a.pdf')).toBe('/new/case');
    expect(suggestionsFolder([s('/new/case/sub/b.pdf')], '/new/case/a.pdf')).toBe('/new/case');
    expect(suggestionsFolder([s('/new/other/b.pdf')], '/new/case/a.pdf')).toBe('/new');
  });
});
