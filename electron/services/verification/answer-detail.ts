/**
 * The answers list, and an answer with its citations, results and review trails read through the store interface
 * (issue 13), so `answers.detail` reads the engine in use. The rows one answer needs are read
 * ahead (a few queries, in parallel on PostgreSQL), then AnswerReads assembles them as it does
 * over SQLite's stores: one assembly, whichever engine the rows came from.
 */
import type { AnswerDetail, AnswerImported, AnswerSummaryData } from '../../../shared/contract/answer-schemas.ts';
import type { EvidenceStore, ResultRow, SegmentRow, SourceRefRow } from '../store/evidence-store.ts';
import { answerNotFound, AnswerReads, type AnswerRowReads } from './answer-reads.ts';
import type { VerifyJobs } from './verify-batches.ts';

const notRead = (what: string) => (): never => {
  throw new Error(`answer-detail reads one answer; ${what} is not read ahead`);
};

export async function readAnswerDetail(store: Pick<EvidenceStore, 'answers' | 'reviews' | 'sources'>, answerId: number, jobs: Pick<VerifyJobs, 'isRunning'>): Promise<AnswerDetail> {
  const { answers, reviews, sources } = store;
  const answer = await answers.answer(answerId);
  if (!answer) throw answerNotFound(answerId);
  const [citations, runs, trail] = await Promise.all([answers.citations(answerId), answers.runs(answerId), reviews.answerHistory(answerId)]);
  const run = runs[runs.length - 1];
  const [results, opinions, closest] = run
    ? await Promise.all([answers.results(run.id), answers.opinions(run.id), answers.closest(run.id)])
    : [[], new Map(), new Map()];
  // An agent session verifies one citation per run: the others keep their own newest result.
  const inRun = new Set(results.map((r) => r.citation_id));
  const latest = new Map<number, ResultRow>((await answers.latestResults(citations.filter((c) => !inRun.has(c.id)).map((c) => c.id))).map((r) => [r.citation_id, r]));
  const allResults = [...results, ...latest.values()];
  const sourceIds = [...citations.map((c) => c.source_id), ...allResults.map((r) => r.source_id), ...[...closest.values()].map((p) => p.source_id)];
  const segmentIds = [...allResults.flatMap((r) => [r.segment_id, r.end_segment_id]), ...[...closest.values()].map((p) => p.segment_id)];
  const [refs, segments] = await Promise.all([
    sources.refs(sourceIds.filter((id): id is number => id !== null)),
    sources.segmentsById(segmentIds.filter((id): id is number => id !== null)),
  ]);
  const refById = new Map<number, SourceRefRow>(refs.map((r) => [r.id, r]));
  const segmentById = new Map<number, SegmentRow>(segments.map((s) => [s.id, s]));

  const rows: AnswerRowReads = {
    answer: (id) => (id === answerId ? answer : undefined),
    citations: () => citations,
    citation: (id) => citations.find((c) => c.id === id),
    latestRun: () => run,
    runs: () => runs,
    results: (runId) => (runId === run?.id ? results : []),
    latestResult: (citationId) => latest.get(citationId),
    answerReviews: () => trail,
    listAnswers: notRead('the list of answers'),
    reviewedCounts: notRead('the review counts'),
  };
  const reads = new AnswerReads(rows, { source: (id) => refById.get(id), segment: (id) => segmentById.get(id) }, { opinions: () => opinions, closest: () => closest }, jobs);
  return reads.get(answerId);
}

/** The answers list read through the store interface, assembled as AnswerReads.list assembles it. */
export async function readAnswerList(store: Pick<EvidenceStore, 'answers' | 'reviews'>, jobs: Pick<VerifyJobs, 'isRunning'>): Promise<AnswerSummaryData[]> {
  const [list, counts] = await Promise.all([store.answers.list(), store.reviews.reviewedCounts()]);
  const rows: AnswerRowReads = {
    answer: notRead('an answer'),
    citations: notRead('citations'),
    citation: notRead('a citation'),
    latestRun: notRead('a run'),
    runs: notRead('runs'),
    results: notRead('results'),
    latestResult: notRead('a result'),
    answerReviews: notRead('review trails'),
    listAnswers: () => list,
    reviewedCounts: () => counts,
  };
  const none = () => undefined;
  return new AnswerReads(rows, { source: none, segment: none }, { opinions: () => new Map(), closest: () => new Map() }, jobs).list();
}

/** A just-imported answer's summary (its row without the text, and its latest run), read through the store interface. */
export async function readImported(store: Pick<EvidenceStore, 'answers' | 'cards'>, answerId: number, citationCount: number, jobs: Pick<VerifyJobs, 'isRunning'>): Promise<AnswerImported> {
  // The lean row: the imported file may run to megabytes and is not part of the reply.
  const [answer, runs] = await Promise.all([store.cards.answer(answerId), store.answers.runs(answerId)]);
  if (!answer) throw answerNotFound(answerId);
  const run = runs[runs.length - 1];
  const rows: AnswerRowReads = {
    answer: (id) => (id === answerId ? { ...answer, raw: null } : undefined),
    citations: notRead('citations'),
    citation: notRead('a citation'),
    latestRun: () => run,
    runs: () => runs,
    results: notRead('results'),
    latestResult: notRead('a result'),
    answerReviews: notRead('review trails'),
    listAnswers: notRead('the list of answers'),
    reviewedCounts: notRead('the review counts'),
  };
  const none = () => undefined;
  return new AnswerReads(rows, { source: none, segment: none }, { opinions: () => new Map(), closest: () => new Map() }, jobs).imported(answerId, citationCount);
}
