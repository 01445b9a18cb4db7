/**
 * An answer opened at case scale (issue 16): its header, text, markers and counts at once, and its
 * citation cards a page at a time, filtered and counted in SQL. Only the cards of a page are built
 * (result, place, judge, closest passage, review trail); the full answer with its verification
 * document stays AnswerReads.get's, for the command line and exports.
 *
 * Read through the store interface (issue 13), so the engine in use answers: the rows of a page are
 * read ahead (its citations, results, trails, opinions, closest passages, then the sources and
 * segments they name), then AnswerReads builds each card as it builds the full answer's.
 */
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import type { AnswerOpen, AnswerOpening, CardFilter, CardListSummary, CardPage, CitationMark } from '../../../shared/contract/card-schemas.ts';
import { packMarks } from '../../../shared/contract/packed-marks.ts';
import { cardKeyPage, cardPageStarts, type CardKeyPage } from '../store/citation-cards-store.ts';
import type { CardKeyRow, EvidenceStore, ReviewRow, SegmentRow, SourceRefRow } from '../store/evidence-store.ts';
import { answerNotFound, AnswerReads, type AnswerRowReads } from './answer-reads.ts';
import type { VerifyJobs } from './verify-batches.ts';

export type CardStore = Pick<EvidenceStore, 'cards' | 'answers' | 'sources'>;

/** The card assembly reads rows given to it, never a store: these are not given. */
const notGiven = (): never => {
  throw new Error('a card is built from the rows read ahead for its page');
};
const NO_ROWS: AnswerRowReads = {
  answer: notGiven,
  citations: notGiven,
  citation: notGiven,
  latestRun: notGiven,
  runs: notGiven,
  results: notGiven,
  latestResult: notGiven,
  answerReviews: notGiven,
  listAnswers: notGiven,
  reviewedCounts: notGiven,
};

export class AnswerCards {
  private readonly jobs: Pick<VerifyJobs, 'isRunning'>;

  constructor(jobs: Pick<VerifyJobs, 'isRunning'>) {
    this.jobs = jobs;
  }

  private async head(store: CardStore, answerId: number) {
    const a = await store.cards.answer(answerId);
    if (!a) throw answerNotFound(answerId);
    return a;
  }

  /** The latest run's risk flags, read only for a flag filter (the others do not need them). */
  private flags(store: CardStore, answerId: number, filter: CardFilter): Promise<string> {
    return filter.startsWith('flag:') ? store.cards.flags(answerId) : Promise.resolve('[]');
  }

  async open(store: CardStore, answerId: number): Promise<AnswerOpen> {
    const { open } = await this.opened(store, answerId);
    return open;
  }

  /**
   * The answer's first screen in one call (issue 16): header, text, counts and packed markers, and
   * the list under `filter` with its first page of cards. Every current citation is read once for
   * the markers; the whole list's shape and first page are cut from those rows, not read again.
   */
  async opening(store: CardStore, answerId: number, filter: CardFilter, pageSize: number): Promise<AnswerOpening> {
    const { open, keys, flags } = await this.opened(store, answerId);
    let shape: { ids: number[]; pageStarts: string[] };
    let first: CardKeyPage;
    if (filter === 'all') {
      shape = { ids: keys.map((k) => k.id), pageStarts: cardPageStarts(keys, pageSize) };
      first = cardKeyPage(keys.slice(0, pageSize + 1), pageSize);
    } else {
      const f = filter.startsWith('flag:') ? flags : '[]';
      [shape, first] = await Promise.all([store.cards.shape(answerId, filter, f, pageSize), store.cards.page(answerId, filter, f, pageSize)]);
    }
    const cards = await this.cards(store, first.rows.map((r) => r.row));
    const { marks, ...head } = open;
    return {
      ...head,
      marks: packMarks(marks),
      list: { total: shape.ids.length, pageSize, pageStarts: shape.ids.length === 0 ? [] : [null, ...shape.pageStarts], ids: shape.ids },
      first: { rows: first.rows.map((r, i) => ({ citation: cards[i] as CitationDetail, cursor: r.cursor })), next: first.next },
    };
  }

  /** An answer's header, markers and counts, with the key rows they were read from and its latest run's flags. */
  private async opened(store: CardStore, answerId: number): Promise<{ open: AnswerOpen; keys: CardKeyRow[]; flags: string }> {
    const a = await this.head(store, answerId);
    const [runs, keys] = await Promise.all([store.answers.runs(answerId), store.cards.keys(answerId)]);
    const last = runs[runs.length - 1];
    const flags = last?.risk_flags ?? '[]';
    const marks: CitationMark[] = keys.map((k) => ({
      id: k.id,
      marker: k.marker,
      status: k.status as CitationMark['status'],
      verdict: k.verdict as CitationMark['verdict'],
      unit: k.unit,
      decision: k.decision,
    }));
    const reads = new AnswerReads(NO_ROWS, { source: notGiven, segment: notGiven }, { opinions: notGiven, closest: notGiven }, this.jobs);
    const open: AnswerOpen = {
      answer: { id: a.id, format: a.format, origin: a.origin, question: a.question, answerText: a.answer_text, createdAt: a.created_at },
      run: last ? reads.runData(last) : null,
      runCount: runs.length,
      marks,
      counts: await store.cards.counts(answerId, flags),
    };
    return { open, keys, flags };
  }

  async page(store: CardStore, answerId: number, filter: CardFilter, limit: number, after?: string): Promise<CardPage> {
    await this.head(store, answerId);
    const page = await store.cards.page(answerId, filter, await this.flags(store, answerId, filter), limit, after);
    const cards = await this.cards(store, page.rows.map((r) => r.row));
    return { rows: page.rows.map((r, i) => ({ citation: cards[i] as CitationDetail, cursor: r.cursor })), next: page.next };
  }

  async summary(store: CardStore, answerId: number, filter: CardFilter, pageSize: number): Promise<CardListSummary> {
    await this.head(store, answerId);
    const { ids, pageStarts } = await store.cards.shape(answerId, filter, await this.flags(store, answerId, filter), pageSize);
    return { total: ids.length, pageSize, pageStarts: ids.length === 0 ? [] : [null, ...pageStarts], ids };
  }

  /** The cards of a page's citations, in its order. */
  private async cards(store: CardStore, keys: readonly Pick<CardKeyRow, 'id' | 'result_id'>[]): Promise<CitationDetail[]> {
    if (keys.length === 0) return [];
    const citationIds = keys.map((k) => k.id);
    const resultIds = keys.flatMap((k) => (k.result_id === null ? [] : [k.result_id]));
    const [citationRows, resultRows, opinionRows, closestRows, trailRows] = await Promise.all([
      store.cards.citations(citationIds),
      store.cards.results(resultIds),
      store.cards.opinions(resultIds),
      store.cards.closest(resultIds),
      store.cards.reviews(citationIds),
    ]);
    const sourceIds = citationRows.map((c) => c.source_id);
    const segmentIds = [...resultRows.flatMap((r) => [r.segment_id, r.end_segment_id]), ...closestRows.map((p) => p.segment_id)];
    const [refs, segments] = await Promise.all([
      store.sources.refs(sourceIds.filter((id): id is number => id !== null)),
      store.sources.segmentsById(segmentIds.filter((id): id is number => id !== null)),
    ]);
    const refById = new Map<number, SourceRefRow>(refs.map((r) => [r.id, r]));
    const segmentById = new Map<number, SegmentRow>(segments.map((s) => [s.id, s]));
    const reads = new AnswerReads(NO_ROWS, { source: (id) => refById.get(id), segment: (id) => segmentById.get(id) }, { opinions: notGiven, closest: notGiven }, this.jobs);

    const citations = new Map(citationRows.map((c) => [c.id, c]));
    const results = new Map(resultRows.map((r) => [r.id, r]));
    const opinions = new Map(opinionRows.map((o) => [o.result_id, o]));
    const closest = new Map(closestRows.map((p) => [p.result_id, p]));
    const trails = new Map<number, ReviewRow[]>();
    for (const row of trailRows) trails.set(row.citation_id, [...(trails.get(row.citation_id) ?? []), row]);
    return keys.flatMap((k) => {
      const c = citations.get(k.id);
      if (!c) return [];
      const r = k.result_id === null ? undefined : results.get(k.result_id);
      return [reads.detailOf(c, r ? reads.resultData(r, opinions.get(r.id), closest.get(r.id)) : null, trails.get(c.id) ?? [])];
    });
  }
}
