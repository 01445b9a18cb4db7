/**
 * What the review desk reads of an answer, on both engines (issue 13, Done-when 1): the answers
 * are imported (and verified) locally; on PostgreSQL the workspace is then moved, and the answer,
 * its results' places and the pages they point into are read back from PostgreSQL
 * (answers.detail, answers.list, sources.pageText) as a reviewer member. Block and line sources
 * are read through sources.content, which still reads the local copy (its area is not moved yet).
 */
import { expect, it } from 'vitest';
import type { AnswerDetail, AnswerSummaryData, MatchPlace } from '../../../shared/contract/answer-schemas.ts';
import type { CiteResult } from '../../../shared/contract/citation-schemas.ts';
import type { SourceContent } from '../../../shared/contract/content-schemas.ts';
import type { PageText } from '../../../shared/contract/schemas.ts';
import { makePdf, type PageSpec, writeFile } from '../../support/pdf-fixtures.ts';
import { describeEngines, ENGINE_PROJECT, type Opened } from '../../support/engines.ts';
import { ingestAll, nativeAnswer, policyWorkspace } from '../../support/policy-workspace.ts';
import { HANDBOOK, makeHandbookDocx } from '../../support/viewer-documents.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

/** The text a place covers, read back the way the viewers read it: page text, blocks, lines. */
async function placedText(services: TestServices, sourceId: number, place: MatchPlace): Promise<string> {
  if (place.unit === 'page') {
    const first = await callHandler<PageText>(services, 'sources.pageText', { id: sourceId, page: place.at });
    if (place.endAt === place.at) return first.text.slice(place.start, place.end);
    const last = await callHandler<PageText>(services, 'sources.pageText', { id: sourceId, page: place.endAt });
    return `${first.text.slice(place.start, place.firstEnd)}\n${last.text.slice(place.lastStart ?? 0, place.end)}`;
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
    const from = u === place.at ? place.start : u === place.endAt ? (place.lastStart ?? 0) : 0;
    parts.push(text.slice(from, u === place.endAt ? place.end : u === place.at ? place.firstEnd : undefined));
  }
  return parts.join('\n');
}

const QUOTES = [
  { file: 'HR_Policy.pdf', quote: 'Employees receive 14 days of annual leave per calendar year.' },
  { file: 'HR_Policy.pdf', quote: 'Receipts must be kept for six years.' },
  { file: 'onboarding-notes.txt', quote: 'Access badges are issued by the facilities team.' },
  { file: 'onboarding-notes.txt', quote: 'on their first day. Access badges are issued' },
  { file: HANDBOOK.fileName, quote: HANDBOOK.quote },
  { file: HANDBOOK.fileName, quote: HANDBOOK.spanning.join(' ') },
];

const RUN_ON: PageSpec[] = [
  { lines: ['Annual Report 2024', 'The new building will open in the spring and the old site', 'will close at the end of the same year, after the', '- 11 -'] },
  { lines: ['12    Annual Report 2024', 'remuneration review. Staff will be consulted about the move.', 'The canteen stays open.'] },
];
const RUN_ON_QUOTE = 'the old site will close at the end of the same year, after the remuneration review. Staff will be consulted';
const HYPHENATED: PageSpec[] = [
  { lines: ['Annual Report 2024', 'The old site will close at the end of the same year, after the remu-', '- 11 -'] },
  { lines: ['12    Annual Report 2024', 'neration review. Staff will be consulted about the move.'] },
];

interface Prepared {
  ids: Record<string, number>;
  /** Answer ids by what they test. */
  answers: { places: number; report: number; split: number; car: number; leave: number };
  /** The leave answer's risk flags as its import reported them. */
  leaveFlags: AnswerDetail['run'];
  /** An agent's session of two cites (one run each), as SQLite's stores read it before any move. */
  session: AnswerDetail;
}

/** Every document and answer the suite reads, made once per engine through today's services. */
async function prepare(services: TestServices): Promise<Prepared> {
  const ws = await policyWorkspace(services);
  const docx = writeFile(ws.docs, HANDBOOK.fileName, await makeHandbookDocx());
  const more = await ingestAll(services, [docx, writeFile(ws.docs, 'report.pdf', await makePdf(RUN_ON)), writeFile(ws.docs, 'split.pdf', await makePdf(HYPHENATED))]);
  const load = async (fileName: string, content: string) => callHandler<AnswerDetail>(services, 'answers.import', { fileName, content });
  const places = await load('places.json', nativeAnswer(QUOTES.map((q, i) => ({ marker: String(i + 1), claim: `Claim ${i + 1}.`, quote: q.quote, source: { file: q.file } }))));
  const reportContent = nativeAnswer([{ marker: '1', claim: 'The old site closes after the review.', quote: RUN_ON_QUOTE, source: { file: 'report.pdf' }, locator: { page: 1 } }]);
  const report = await load('report.json', reportContent);
  const split = await load('split.json', reportContent.replace('report.pdf', 'split.pdf'));
  const car = await load('car.json', nativeAnswer([{ marker: '1', claim: 'Staff get a car.', quote: 'Every employee receives a company car.', source: { file: 'HR_Policy.pdf' }, locator: { page: 2 } }]));
  const leave = await load(
    'leave.json',
    nativeAnswer([{ marker: '1', claim: 'Employees receive 15 days of annual leave.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' } }]),
  );
  // An agent cites twice in one session, in the project the move puts local answers in.
  const context = { session_id: 'desk-agent-1', agent_id: 'desk-agent', user_id: 'analyst', project_id: ENGINE_PROJECT };
  const cited: CiteResult[] = [];
  for (const quote of ['Employees receive 14 days of annual leave per calendar year.', 'Receipts must be kept for six years.']) {
    cited.push(await callHandler<CiteResult>(services, 'citations.cite', { claim: quote, quote_context: 'policy', verbatim_quote: quote, source: 'HR_Policy.pdf', context }));
  }
  const sessionAnswer = services.db.prepare('SELECT answer_id AS id FROM citations WHERE id = ?').get(cited[0]?.citation_id) as { id: number };
  return {
    session: services.answers.get(sessionAnswer.id),
    ids: { ...ws.ids, ...more },
    answers: { places: places.answer.id, report: report.answer.id, split: split.answer.id, car: car.answer.id, leave: leave.answer.id },
    leaveFlags: leave.run,
  };
}

describeEngines('what the review desk reads of an answer: where each quote lies, and each run’s risk flags', (engine) => {
  // Every test only reads: one workspace per engine, made at the first ask.
  let shared: Promise<Opened<Prepared>> | undefined;
  const open = () => (shared ??= engine.open(prepare, { as: 'reviewer', scope: 'suite' }));
  const detailOf = (services: TestServices, id: number) => callHandler<AnswerDetail>(services, 'answers.detail', { id });

  it('places quotes by page, block and line, with offsets the viewers can highlight', async () => {
    const { services, prepared } = await open();
    expect(services.evidence.engine).toBe(engine.name);
    const detail = await detailOf(services, prepared.answers.places);
    const places = detail.citations.map((c) => c.result?.place);
    expect(places).toEqual([
      { unit: 'page', at: 3, endAt: 3, start: expect.any(Number), end: expect.any(Number) },
      { unit: 'page', at: 4, endAt: 4, start: expect.any(Number), end: expect.any(Number) },
      { unit: 'line', at: 4, endAt: 4, start: 0, end: QUOTES[2]?.quote.length },
      { unit: 'line', at: 3, endAt: 4, start: 'New starters receive a laptop '.length, end: 'Access badges are issued'.length },
      { unit: 'block', at: 1, endAt: 1, start: 'Employees accrue '.length, end: expect.any(Number) },
      { unit: 'block', at: 20, endAt: 21, start: expect.any(Number), end: HANDBOOK.spanning[1]?.length, firstEnd: expect.any(Number), lastStart: 0 },
    ]);
    for (const [i, c] of detail.citations.entries()) {
      const place = c.result?.place;
      const sourceId = prepared.ids[QUOTES[i]?.file ?? ''];
      if (!place || sourceId === undefined) throw new Error(`citation ${i + 1} was not placed`);
      // Line and block breaks read back as "\n"; the quotes have a space there.
      expect((await placedText(services, sourceId, place)).replace(/\n/g, ' ')).toBe(QUOTES[i]?.quote);
    }
  });

  it('keeps a running footer and head out of the place of a quote that runs on over a page break', async () => {
    const { services, prepared } = await open();
    const sourceId = prepared.ids['report.pdf'];
    const place = (await detailOf(services, prepared.answers.report)).citations[0]?.result?.place;
    if (!place || sourceId === undefined) throw new Error('the quote was not placed');
    expect(place).toMatchObject({ unit: 'page', at: 1, endAt: 2 });
    const first = await callHandler<PageText>(services, 'sources.pageText', { id: sourceId, page: 1 });
    const last = await callHandler<PageText>(services, 'sources.pageText', { id: sourceId, page: 2 });
    // The first part ends before the footer, the last starts after the head.
    expect(first.text.slice(place.start, place.firstEnd)).toMatch(/^the old site\b.*\bafter the$/s);
    expect(first.text.slice(place.firstEnd)).toContain('- 11 -');
    expect(last.text.slice(0, place.lastStart)).toContain('12');
    expect(last.text.slice(place.lastStart, place.end)).toMatch(/^remuneration review\. Staff will be consulted$/);
    // Joined, the stored slices are the quote's words.
    const words = (t: string) => t.split(/\s+/).filter(Boolean);
    expect(words(await placedText(services, sourceId, place))).toEqual(words(RUN_ON_QUOTE));

    // A word hyphenated over the break: its halves are the parts' edges, the hyphen stays with the first.
    const splitId = prepared.ids['split.pdf'];
    const at = (await detailOf(services, prepared.answers.split)).citations[0]?.result?.place;
    if (!at || splitId === undefined) throw new Error('the hyphenated quote was not placed');
    const [p1, p2] = await Promise.all([1, 2].map((page) => callHandler<PageText>(services, 'sources.pageText', { id: splitId, page })));
    expect(p1?.text.slice(at.start, at.firstEnd)).toMatch(/^[Tt]he old site\b.*\bafter the remu-$/s);
    expect(p2?.text.slice(at.lastStart, at.end)).toBe('neration review. Staff will be consulted');
  });

  it('leaves a quote it could not find unplaced', async () => {
    const { services, prepared } = await open();
    const detail = await detailOf(services, prepared.answers.car);
    expect(detail.citations[0]?.result).toMatchObject({ status: 'not_found', place: null });
  });

  it('lists each answer with its latest run’s risk flags', async () => {
    const { services, prepared } = await open();
    const detail = await detailOf(services, prepared.answers.leave);
    expect(detail.citations[0]?.result?.verdict).toBe('contradicted');
    expect(detail.run?.riskFlags).toEqual(prepared.leaveFlags?.riskFlags);
    const list = await callHandler<AnswerSummaryData[]>(services, 'answers.list', {});
    // Newest first: the agent's session came last.
    expect(list.map((a) => a.id)).toEqual([prepared.session.answer.id, ...Object.values(prepared.answers)].sort((a, b) => b - a));
    const listed = list.find((a) => a.id === prepared.answers.leave);
    expect(listed?.latestRun?.riskFlags).toEqual(detail.run?.riskFlags);
    expect(listed?.latestRun?.riskFlags.map((f) => f.code)).toContain('contradiction');
  });

  it("reads an agent session's citations each with the newest result of its own run", async () => {
    const { services, prepared } = await open();
    const detail = await detailOf(services, prepared.session.answer.id);
    // The same as SQLite's stores assembled it before the move (the handler adds the library's name).
    const { name, ...answer } = detail.answer;
    expect(name).toBeNull();
    expect({ ...detail, answer }).toEqual(prepared.session);
    expect(detail.runCount).toBe(2);
    expect(detail.citations.map((c) => [c.result?.status, c.result?.place?.at])).toEqual([
      ['verified', 3],
      ['verified', 4],
    ]);
    // Each citation's result is its own run's: the first is not in the latest run.
    expect(detail.citations[0]?.result?.runId).not.toBe(detail.run?.id);
    expect(detail.citations[1]?.result?.runId).toBe(detail.run?.id);
  });

  it('says which answer or page is not there', async () => {
    const { services, prepared } = await open();
    const none = await services.dispatch('answers.detail', { id: 999_999 });
    expect(none.ok ? null : none.error.code).toBe('ANSWER_NOT_FOUND');
    const page = await services.dispatch('sources.pageText', { id: prepared.ids['report.pdf'], page: 9 });
    expect(page.ok ? null : page.error).toMatchObject({ code: 'SEGMENT_NOT_FOUND', message: expect.stringContaining('report.pdf has no page 9') });
    const source = await services.dispatch('sources.pageText', { id: 999_999, page: 1 });
    expect(source.ok ? null : source.error.code).toBe('SOURCE_NOT_FOUND');
  });
});
