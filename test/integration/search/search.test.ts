/**
 * Search across the workspace, on both engines (issue 13, Done-when 1): the same queries give the
 * same hits through the search service on SQLite (FTS5, bm25) and on PostgreSQL (tsvector,
 * ts_rank), as a member with the reviewer level there.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SearchHit } from '../../../shared/contract/schemas.ts';
import { describeEngines } from '../../support/engines.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, NOTES_TEXT, POLICY_PAGES, policyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

const search = (services: TestServices, input: Record<string, unknown>) => callHandler<{ hits: SearchHit[] }>(services, 'search.query', input).then((r) => r.hits);

const MEMO = [
  'Café opening hours',
  '',
  'The Überweisung reached the café on Monday; the résumé was attached.',
  '',
  'Audit notes: the audit found the audit trail complete and the ledger balanced.',
  '',
  'Ledger notes: the audit found the ledger complete and the trail balanced today.',
  '',
].join('\n');

describeEngines('search across the workspace', (engine) => {
  // The tests that only read share one policy workspace per engine (made at the first ask).
  let shared: ReturnType<typeof openPolicy> | undefined;
  const openPolicy = () => engine.open(policyWorkspace, { as: 'reviewer', scope: 'suite' });
  const open = () => (shared ??= openPolicy());

  it('finds a quoted phrase as a phrase, with the offsets of the whole phrase in its segment', async () => {
    const { services, prepared: ws } = await open();
    expect(services.evidence.engine).toBe(engine.name);
    const hits = await search(services, { query: '"annual leave per calendar"' });
    expect(hits).toHaveLength(1);
    const hit = hits[0]!;
    expect(hit).toMatchObject({ fileName: 'HR_Policy.pdf', kind: 'pdf', locator: { page: 3 } });
    const page = await callHandler<{ text: string }>(services, 'sources.pageText', { id: ws.ids['HR_Policy.pdf'], page: 3 });
    expect(page.text.slice(hit.match!.start, hit.match!.end)).toBe('annual leave per calendar');
    expect(hit.snippet).toContain('annual leave');
    // The words in another order are no phrase.
    expect(await search(services, { query: '"calendar per leave annual"' })).toEqual([]);
    expect(POLICY_PAGES[2]!.lines.join(' ')).toContain('annual leave per calendar');
  });

  it('filters by source and by type; a text hit carries its line locator and offsets inside the segment', async () => {
    const { services, prepared: ws } = await open();
    const both = await search(services, { query: 'six' });
    expect(new Set(both.map((h) => h.fileName))).toEqual(new Set(['HR_Policy.pdf', 'onboarding-notes.txt']));
    const texts = await search(services, { query: 'six', kinds: ['text'] });
    expect(texts.map((h) => h.fileName)).toEqual(['onboarding-notes.txt']);
    const hit = texts[0]!;
    expect(hit.locator.line).toBe(NOTES_TEXT.split('\n').findIndex((l) => l.includes('six')) + 1);
    expect(hit.snippet).toContain('six');
    expect(hit.highlights.length).toBeGreaterThan(0);
    const [from, to] = hit.highlights[0]!;
    expect(hit.snippet!.slice(from, to).toLowerCase()).toBe('six');
    const bySource = await search(services, { query: 'six', sourceIds: [ws.ids['HR_Policy.pdf']] });
    expect(bySource.map((h) => h.fileName)).toEqual(['HR_Policy.pdf']);
    expect(await search(services, { query: 'six', kinds: ['docx'] })).toEqual([]);
    // Without snippets, no snippet and no match offsets.
    const bare = await search(services, { query: 'six', snippets: false });
    expect(bare.map((h) => [h.snippet, h.match ?? null])).toEqual(bare.map(() => [null, null]));
  });

  it('folds case and accents, keeps a trailing * as a prefix, and ranks the segment with more of the words first', async () => {
    const { services } = await engine.open(
      async (s) => ingestAll(s, [writeFile(path.join(s.dir, 'docs'), 'memo.txt', MEMO)]),
      { as: 'reviewer' },
    );
    // The segment's text, from the local copy (the move kept every id).
    const text = (hit: SearchHit) => (services.db.prepare('SELECT text FROM segments WHERE id = ?').get(hit.segmentId) as { text: string }).text;
    const word = async (query: string) => {
      const hits = await search(services, { query });
      expect(hits, query).toHaveLength(1);
      const hit = hits[0]!;
      return text(hit).slice(hit.match!.start, hit.match!.end);
    };
    expect(await word('UBERWEISUNG')).toBe('Überweisung');
    expect(await word('resume')).toBe('résumé');
    expect(await word('reach*')).toBe('reached');
    expect((await search(services, { query: 'cafe' })).length).toBe(2);

    const ranked = await search(services, { query: 'audit' });
    expect(ranked).toHaveLength(2);
    expect(text(ranked[0]!)).toContain('the audit found the audit trail');
    expect(ranked[0]!.rank).toBeLessThan(ranked[1]!.rank);
  });

  it('finds nothing for an empty query or mere punctuation, and takes operator words as words', async () => {
    const { services } = await open();
    expect(await search(services, { query: '   ' })).toEqual([]);
    expect(await search(services, { query: '"" * - ( )' })).toEqual([]);
    expect(await search(services, { query: 'NEAR OR AND NOT' })).toEqual([]);
    expect((await search(services, { query: 'lea*' })).map((h) => h.fileName)).toContain('HR_Policy.pdf');
  });

  it('leaves a removed source out of search', async () => {
    const { services } = await engine.open(
      async (s) => {
        const ws = await policyWorkspace(s);
        await callHandler(s, 'sources.remove', { id: ws.ids['onboarding-notes.txt'] });
        return ws;
      },
      { as: 'reviewer' },
    );
    expect(await search(services, { query: 'probation' })).toEqual([]);
    expect((await search(services, { query: 'six' })).map((h) => h.fileName)).toEqual(['HR_Policy.pdf']);
  });
});
