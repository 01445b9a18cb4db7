import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerDetail, CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { CARD_FILTERS, PROBLEM_STATUSES, PROBLEM_VERDICTS, type AnswerOpen, type CardFilter, type CardListSummary, type CardPage } from '../../../shared/contract/card-schemas.ts';
import { addSmallSources, bigAnswer } from '../../support/scale-workspace.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

// Keyset pages of citation cards (issue 16, Done-when 3): every filter walked page by page against
// what the full answer says, with decisions and new citations landing between pages.

const SOURCES = 40;
const CITATIONS = 230;

/** What a filter shows, worked out from the full answer (answers.detail) card by card. */
function bruteForce(detail: AnswerDetail, filter: CardFilter): number[] {
  const flags = detail.run?.riskFlags ?? [];
  const pick = (c: CitationDetail): boolean => {
    const s = c.result?.status ?? null;
    const v = c.result?.verdict ?? null;
    if (filter === 'all') return true;
    if (filter === 'unreviewed') return c.review === null;
    if (filter === 'problems') return c.review?.decision === 'flagged' || s === null || PROBLEM_STATUSES.includes(s) || (v !== null && PROBLEM_VERDICTS.includes(v));
    const [kind, value] = filter.split(':');
    if (kind === 'status') return s === value;
    if (kind === 'verdict') return v === value;
    return flags.some((f) => f.code === value && f.markers.includes(c.marker));
  };
  return detail.citations.filter(pick).map((c) => c.id);
}

describe('citation cards in keyset pages', () => {
  let services: TestServices;
  let answerId: number;

  const page = (filter: CardFilter, limit: number, after?: string) =>
    callHandler<CardPage>(services, 'answers.cards', { id: answerId, filter, limit, ...(after ? { after } : {}) });

  /** Every page of a filter, `between(pageNumber)` run after each page but the last. */
  async function walk(filter: CardFilter, limit: number, between?: (k: number) => Promise<void>): Promise<number[]> {
    const ids: number[] = [];
    let after: string | undefined;
    for (let k = 0; ; k++) {
      const p = await page(filter, limit, after);
      expect(p.rows.length).toBeLessThanOrEqual(limit);
      ids.push(...p.rows.map((r) => r.citation.id));
      if (p.next === null) return ids;
      expect(p.rows.length).toBe(limit);
      expect(p.next).toBe(p.rows[p.rows.length - 1]?.cursor);
      after = p.next;
      await between?.(k);
    }
  }

  beforeAll(async () => {
    services = openTestServices();
    addSmallSources(services.sources, path.join(services.dir, 'notes'), SOURCES);
    const imported = await callHandler<AnswerDetail>(services, 'answers.import', { content: bigAnswer(CITATIONS, SOURCES), fileName: 'items.json' });
    answerId = imported.answer.id;
    // Some decisions, so the review filters have something to tell apart.
    for (const [i, decision] of [[2, 'accepted'], [9, 'flagged'], [40, 'rejected'], [41, 'accepted']] as const) {
      const c = imported.citations[i];
      if (c) await callHandler(services, 'answers.review', { citationId: c.id, decision, ...(decision === 'accepted' && c.result?.status === 'not_found' ? { note: 'checked by hand' } : {}) });
    }
  }, 120_000);

  afterAll(() => services?.close());

  it('walks every filter page by page: no card skipped or repeated, in answer order, as the full answer says', async () => {
    const detail = await callHandler<AnswerDetail>(services, 'answers.detail', { id: answerId });
    const opened = await callHandler<AnswerOpen>(services, 'answers.get', { id: answerId });
    expect(opened.marks.map((m) => m.id)).toEqual(detail.citations.map((c) => c.id));
    let nonEmpty = 0;
    for (const filter of CARD_FILTERS) {
      const expected = bruteForce(detail, filter);
      const walked = await walk(filter, 17);
      expect(walked, filter).toEqual(expected);
      expect(new Set(walked).size).toBe(walked.length);
      // Counts from SQL: a filter that shows nothing is left out (except "all").
      expect(opened.counts[filter] ?? 0, filter).toBe(expected.length);
      const summary = await callHandler<CardListSummary>(services, 'answers.cardsSummary', { id: answerId, filter, pageSize: 17 });
      expect(summary.ids).toEqual(expected);
      expect(summary.total).toBe(expected.length);
      // The page starts reach each page by its key: page k is the k-th slice of the list.
      for (const [k, after] of summary.pageStarts.entries()) {
        const p = await page(filter, 17, after ?? undefined);
        expect(p.rows.map((r) => r.citation.id)).toEqual(expected.slice(k * 17, k * 17 + 17));
      }
      if (expected.length > 0) nonEmpty += 1;
    }
    // The fixture reaches the filters it means to: statuses, verdicts, reviews and a risk flag.
    expect(opened.counts['flag:missing_evidence']).toBe(Math.floor(CITATIONS / 7));
    expect(opened.counts.unreviewed).toBe(CITATIONS - 4);
    expect(nonEmpty).toBeGreaterThanOrEqual(6);
  });

  it('builds each card as the full answer does', async () => {
    const detail = await callHandler<AnswerDetail>(services, 'answers.detail', { id: answerId });
    const cards = (await page('all', 50)).rows.map((r) => r.citation);
    expect(cards).toEqual(detail.citations.slice(0, 50));
  });

  it('skips none when decisions take cards out of the filter between pages', async () => {
    const before = bruteForce(await callHandler<AnswerDetail>(services, 'answers.detail', { id: answerId }), 'unreviewed');
    const seen = before[5] as number;
    const ahead = before[60] as number;
    const walked = await walk('unreviewed', 20, async (k) => {
      if (k !== 0) return;
      // One card already walked and one not yet reached leave the filter.
      await callHandler(services, 'answers.review', { citationId: seen, decision: 'flagged' });
      await callHandler(services, 'answers.review', { citationId: ahead, decision: 'rejected' });
    });
    expect(walked).toEqual(before.filter((id) => id !== ahead));
  });

  it('keeps its order while an agent cites into the session between pages', async () => {
    const cite = (i: number) =>
      callHandler<{ citation_id: number }>(services, 'citations.cite', {
        claim: `Item ${i} is kept in the record.`,
        quote_context: `item ${i}`,
        verbatim_quote: `the record keeps item ${i} of the matter`,
        source: `note-${String(i).padStart(6, '0')}.txt`,
        context: { session_id: 'keyset-session' },
      });
    for (let i = 0; i < 12; i++) await cite(i);
    const listed = await callHandler<{ citations: { answer_id: number }[] }>(services, 'citations.list', { session_id: 'keyset-session' });
    const saved = answerId;
    answerId = listed.citations[0]?.answer_id ?? 0;
    try {
      const added: number[] = [];
      const walked = await walk('all', 5, async () => {
        added.push((await cite(20 + added.length)).citation_id);
      });
      const all = (await callHandler<AnswerDetail>(services, 'answers.detail', { id: answerId })).citations.map((c) => c.id);
      // Each card once, in answer order; those cited meanwhile come after the walk's start, none lost.
      expect(new Set(walked).size).toBe(walked.length);
      expect(walked).toEqual(all.slice(0, walked.length));
      expect(walked.length).toBeGreaterThan(12);
      expect(all.length).toBe(12 + added.length);
    } finally {
      answerId = saved;
    }
  });

  it('refuses a cursor it did not give out, naming the field', async () => {
    await expect(page('all', 5, 'not-a-cursor')).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'after' } });
  });
});
