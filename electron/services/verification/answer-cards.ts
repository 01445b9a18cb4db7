/**
 * An answer opened at case scale (issue 16): its header, text, markers and counts at once, and its
 * citation cards a page at a time, filtered and counted in SQL. Only the cards of a page are built
 * (result, place, judge, closest passage, review trail); the full answer with its verification
 * document stays AnswerReads.get's, for the command line and exports.
 */
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import type { AnswerOpen, CardFilter, CardListSummary, CardPage, CitationMark } from '../../../shared/contract/card-schemas.ts';
import type { AnswersStore, ReviewRow } from '../store/answers-store.ts';
import { CardRowsStore, CitationCardsStore } from '../store/citation-cards-store.ts';
import type { Db } from '../store/database.ts';
import { answerNotFound, type AnswerReads } from './answer-reads.ts';

export class AnswerCards {
  private readonly keys: CitationCardsStore;
  private readonly rows: CardRowsStore;
  private readonly store: AnswersStore;
  private readonly reads: AnswerReads;

  constructor(db: Db, store: AnswersStore, reads: AnswerReads) {
    this.keys = new CitationCardsStore(db);
    this.rows = new CardRowsStore(db);
    this.store = store;
    this.reads = reads;
  }

  /** The latest run's risk flags as stored (JSON): a flag filter reads its markers in SQL. */
  private flags(answerId: number): string {
    return this.store.latestRun(answerId)?.risk_flags ?? '[]';
  }

  private head(answerId: number) {
    const a = this.keys.answer(answerId);
    if (!a) throw answerNotFound(answerId);
    return a;
  }

  open(answerId: number): AnswerOpen {
    const a = this.head(answerId);
    const runs = this.store.runs(answerId);
    const last = runs[runs.length - 1];
    const marks: CitationMark[] = this.keys.keys(answerId).map((k) => ({
      id: k.id,
      marker: k.marker,
      status: k.status as CitationMark['status'],
      verdict: k.verdict as CitationMark['verdict'],
      unit: k.unit,
      decision: k.decision,
    }));
    return {
      answer: { id: a.id, format: a.format, origin: a.origin, question: a.question, answerText: a.answer_text, createdAt: a.created_at },
      run: last ? this.reads.runData(last) : null,
      runCount: runs.length,
      marks,
      counts: this.keys.counts(answerId, last?.risk_flags ?? '[]'),
    };
  }

  page(answerId: number, filter: CardFilter, limit: number, after?: string): CardPage {
    this.head(answerId);
    const page = this.keys.page(answerId, filter, this.flags(answerId), limit, after);
    const cards = this.cards(page.rows.map((r) => r.row));
    return { rows: page.rows.map((r, i) => ({ citation: cards[i] as CitationDetail, cursor: r.cursor })), next: page.next };
  }

  summary(answerId: number, filter: CardFilter, pageSize: number): CardListSummary {
    this.head(answerId);
    const { ids, pageStarts } = this.keys.shape(answerId, filter, this.flags(answerId), pageSize);
    return { total: ids.length, pageSize, pageStarts: ids.length === 0 ? [] : [null, ...pageStarts], ids };
  }

  /** The cards of a page's citations, in its order. */
  private cards(keys: readonly { id: number; result_id: number | null }[]): CitationDetail[] {
    const citationIds = keys.map((k) => k.id);
    const resultIds = keys.flatMap((k) => (k.result_id === null ? [] : [k.result_id]));
    const citations = new Map(this.rows.citations(citationIds).map((c) => [c.id, c]));
    const results = new Map(this.rows.results(resultIds).map((r) => [r.id, r]));
    const opinions = new Map(this.rows.opinions(resultIds).map((o) => [o.result_id, o]));
    const closest = new Map(this.rows.closest(resultIds).map((p) => [p.result_id, p]));
    const trails = new Map<number, ReviewRow[]>();
    for (const row of this.rows.reviews(citationIds)) trails.set(row.citation_id, [...(trails.get(row.citation_id) ?? []), row]);
    return keys.flatMap((k) => {
      const c = citations.get(k.id);
      if (!c) return [];
      const r = k.result_id === null ? undefined : results.get(k.result_id);
      return [this.reads.detailOf(c, r ? this.reads.resultData(r, opinions.get(r.id), closest.get(r.id)) : null, trails.get(c.id) ?? [])];
    });
  }
}
