import { describe, expect, it } from 'vitest';
import type { AnswerDetail, AnswerSummaryData, MatchPlace } from '../../../shared/contract/answer-schemas.ts';
import type { SourceContent } from '../../../shared/contract/content-schemas.ts';
import type { PageText } from '../../../shared/contract/schemas.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer, type PolicyWorkspace, withPolicyWorkspace } from '../../support/policy-workspace.ts';
import { HANDBOOK, makeHandbookDocx } from '../../support/viewer-documents.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

/** The text a place covers, read back the way the viewers read it: page text, blocks, lines. */
async function placedText(services: TestServices, sourceId: number, place: MatchPlace): Promise<string> {
  if (place.unit === 'page') {
    const first = await callHandler<PageText>(services, 'sources.pageText', { id: sourceId, page: place.at });
    if (place.endAt === place.at) return first.text.slice(place.start, place.end);
    const last = await callHandler<PageText>(services, 'sources.pageText', { id: sourceId, page: place.endAt });
    return `${first.text.slice(place.start)}\n${last.text.slice(0, place.end)}`;
  }
  const content = await callHandler<SourceContent>(services, 'sources.content', { id: sourceId });
  const units =
    place.unit === 'block'
      ? new Map(content.segments.flatMap((s) => (s.paragraph === null ? [] : [[s.paragraph, s.text] as const])))
      : new Map(content.view === 'lines' ? content.lines.map((l, i) => [i + 1, l] as const) : []);
  const parts: string[] = [];
  for (let u = place.at; u <= place.endAt; u++) {
    const text = units.get(u);
    if (text === undefined) continue;
    parts.push(text.slice(u === place.at ? place.start : 0, u === place.endAt ? place.end : undefined));
  }
  return parts.join('\n');
}

describe('what the review desk reads of an answer: where each quote lies, and each run’s risk flags', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((opened) => ({ services, ws } = opened));

  it('places quotes by page, block and line, with offsets the viewers can highlight', async () => {
    const docx = writeFile(ws.docs, HANDBOOK.fileName, await makeHandbookDocx());
    const { [HANDBOOK.fileName]: docxId } = await ingestAll(services, [docx]);
    const quotes = [
      { file: 'HR_Policy.pdf', quote: 'Employees receive 14 days of annual leave per calendar year.' },
      { file: 'HR_Policy.pdf', quote: 'Receipts must be kept for six years.' },
      { file: 'onboarding-notes.txt', quote: 'Access badges are issued by the facilities team.' },
      { file: 'onboarding-notes.txt', quote: 'on their first day. Access badges are issued' },
      { file: HANDBOOK.fileName, quote: HANDBOOK.quote },
      { file: HANDBOOK.fileName, quote: HANDBOOK.spanning.join(' ') },
    ];
    const content = nativeAnswer(quotes.map((q, i) => ({ marker: String(i + 1), claim: `Claim ${i + 1}.`, quote: q.quote, source: { file: q.file } })));
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', { fileName: 'places.json', content });
    const places = detail.citations.map((c) => c.result?.place);
    expect(places).toEqual([
      { unit: 'page', at: 3, endAt: 3, start: expect.any(Number), end: expect.any(Number) },
      { unit: 'page', at: 4, endAt: 4, start: expect.any(Number), end: expect.any(Number) },
      { unit: 'line', at: 4, endAt: 4, start: 0, end: quotes[2]?.quote.length },
      { unit: 'line', at: 3, endAt: 4, start: 'New starters receive a laptop '.length, end: 'Access badges are issued'.length },
      { unit: 'block', at: 1, endAt: 1, start: 'Employees accrue '.length, end: expect.any(Number) },
      { unit: 'block', at: 20, endAt: 21, start: expect.any(Number), end: HANDBOOK.spanning[1]?.length },
    ]);
    const ids = { ...ws.ids, [HANDBOOK.fileName]: docxId };
    for (const [i, c] of detail.citations.entries()) {
      const place = c.result?.place;
      const sourceId = ids[quotes[i]?.file ?? ''];
      if (!place || sourceId === undefined) throw new Error(`citation ${i + 1} was not placed`);
      // Line and block breaks read back as "\n"; the quotes have a space there.
      expect((await placedText(services, sourceId, place)).replace(/\n/g, ' ')).toBe(quotes[i]?.quote);
    }
  });

  it('leaves a quote it could not find unplaced', async () => {
    const content = nativeAnswer([{ marker: '1', claim: 'Staff get a car.', quote: 'Every employee receives a company car.', source: { file: 'HR_Policy.pdf' }, locator: { page: 2 } }]);
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', { fileName: 'car.json', content });
    expect(detail.citations[0]?.result).toMatchObject({ status: 'not_found', place: null });
  });

  it('lists each answer with its latest run’s risk flags', async () => {
    const content = nativeAnswer([
      { marker: '1', claim: 'Employees receive 15 days of annual leave.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' } },
    ]);
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', { fileName: 'leave.json', content });
    expect(detail.citations[0]?.result?.verdict).toBe('contradicted');
    const [listed] = await callHandler<AnswerSummaryData[]>(services, 'answers.list', {});
    expect(listed?.latestRun?.riskFlags).toEqual(detail.run?.riskFlags);
    expect(listed?.latestRun?.riskFlags.map((f) => f.code)).toContain('contradiction');
  });
});
