/**
 * Reading stored answers back: the answers list, an answer with its citations, newest results, review
 * trails and the verification@1 document of its latest run, and a run's results. The writes (import,
 * verification, re-anchoring) are answers-service.ts's.
 */
import type { AnswerDetail, AnswerImported, AnswerSummaryData, CitationDetail, CitationResultData, RunData, StoredClaimedLocator } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { VERIFICATION_FORMAT, VerificationRiskFlag, VerificationSummary, type VerificationCitation, type VerificationResult } from '../../../shared/verification/result-schema.ts';
import { parseJson } from '../../../shared/json-or.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { AnswersStore, CitationRow, ResultRow, ReviewRow, RunRow } from '../store/answers-store.ts';
import type { ClosestPassageRow, JudgeOpinionRow, ResultExtrasStore } from '../store/result-extras-store.ts';
import { toAnchorSegment } from './anchor-segment.ts';
import { matchPlace } from './match-place.ts';
import { trailOf } from './review-service.ts';
import { closestData, closestMatch, judgeData, verificationMatch } from './verification-output.ts';
import type { VerifyJobs } from './verify-batches.ts';

/** A run's stored risk flags; a row this version cannot read is left out rather than failing the answer. */
export function storedRiskFlags(text: string | null): VerificationRiskFlag[] {
  return parseJson<unknown[]>(text, []).flatMap((f) => {
    const r = VerificationRiskFlag.safeParse(f);
    return r.success ? [r.data] : [];
  });
}

export function answerNotFound(id: number): AppError {
  return new AppError('ANSWER_NOT_FOUND', `There is no answer with id ${id} in this workspace. List the answers with answers.list.`);
}

/** The reads of answers these assemblies make: SQLite's stores, or rows read ahead from any engine (answer-detail.ts). */
export type AnswerRowReads = Pick<AnswersStore, 'answer' | 'citations' | 'citation' | 'latestRun' | 'runs' | 'results' | 'latestResult' | 'answerReviews' | 'listAnswers' | 'reviewedCounts'>;
export type SourceRowReads = Pick<AnchoringStore, 'source' | 'segment'>;
export type ExtrasReads = Pick<ResultExtrasStore, 'opinions' | 'closest'>;

export class AnswerReads {
  private readonly store: AnswerRowReads;
  private readonly anchoring: SourceRowReads;
  private readonly extras: ExtrasReads;
  private readonly jobs: Pick<VerifyJobs, 'isRunning'>;

  constructor(store: AnswerRowReads, anchoring: SourceRowReads, extras: ExtrasReads, jobs: Pick<VerifyJobs, 'isRunning'>) {
    this.store = store;
    this.anchoring = anchoring;
    this.extras = extras;
    this.jobs = jobs;
  }

  requireAnswer(id: number) {
    const a = this.store.answer(id);
    if (!a) throw answerNotFound(id);
    return a;
  }

  list(): AnswerSummaryData[] {
    const reviewed = this.store.reviewedCounts();
    return this.store.listAnswers().map((a) => {
      const summary = a.run_summary === null ? null : VerificationSummary.safeParse(parseJson(a.run_summary, null));
      return {
        id: a.id,
        format: a.format,
        origin: a.origin,
        question: a.question,
        createdAt: a.created_at,
        citationCount: a.citation_count,
        reviewedCount: reviewed.get(a.id) ?? 0,
        latestRun:
          a.run_id !== null && a.run_created_at !== null && summary?.success
            ? { id: a.run_id, createdAt: a.run_created_at, summary: summary.data, riskFlags: storedRiskFlags(a.run_risk_flags) }
            : null,
      };
    });
  }

  runData(run: RunRow): RunData {
    const data: RunData = {
      id: run.id,
      verifier: run.verifier,
      createdAt: run.created_at,
      summary: VerificationSummary.parse(parseJson(run.summary, {})),
      riskFlags: storedRiskFlags(run.risk_flags),
    };
    if (run.planned !== null) {
      const state = run.end_state === 'complete' || run.end_state === 'cancelled' ? run.end_state : this.jobs.isRunning(run.id) ? 'running' : 'interrupted';
      data.progress = { planned: run.planned, done: run.done ?? 0, state };
    }
    return data;
  }

  resultData(r: ResultRow, opinion?: JudgeOpinionRow, closest?: ClosestPassageRow): CitationResultData {
    const method = r.match_method === 'exact' || r.match_method === 'normalised' || r.match_method === 'fuzzy' ? r.match_method : null;
    return {
      runId: r.run_id,
      status: r.status as CitationResultData['status'],
      verdict: r.verdict as CitationResultData['verdict'],
      score: r.score,
      confidence: r.confidence,
      sourceId: r.source_id,
      segmentId: r.segment_id,
      start: r.start_offset,
      endSegmentId: r.end_segment_id,
      end: r.end_offset,
      page: r.page,
      pageLabel: r.page_label,
      method,
      matchedText: r.matched_text,
      quote: r.quote,
      prefix: r.prefix,
      suffix: r.suffix,
      notes: parseJson<string[]>(r.notes, []),
      place: this.placeOf(r),
      judge: opinion ? judgeData(opinion) : null,
      closest: closest ? closestData(closest, this.anchoring.segment(closest.segment_id)) : null,
    };
  }

  private placeOf(r: ResultRow): CitationResultData['place'] {
    const first = r.segment_id === null ? undefined : this.anchoring.segment(r.segment_id);
    if (!first || r.start_offset === null || r.end_offset === null) return null;
    const last = r.end_segment_id === null ? undefined : this.anchoring.segment(r.end_segment_id);
    const parts = last && r.first_end !== null && r.last_start !== null ? { firstEnd: r.first_end, lastStart: r.last_start } : undefined;
    return matchPlace(first, r.start_offset, last, r.end_offset, parts);
  }

  /** The verification@1 document of a stored run. */
  private storedVerification(question: string | null, run: RunData, citations: CitationRow[], results: Map<number, ResultRow>, data: Map<number, CitationResultData>, closestRows: Map<number, ClosestPassageRow>): VerificationResult {
    const items: VerificationCitation[] = citations.flatMap((c) => {
      const r = results.get(c.id);
      if (!r) return [];
      let match: VerificationCitation['match'] = null;
      if (r.segment_id !== null && r.source_id !== null && r.start_offset !== null && r.end_offset !== null) {
        const source = this.anchoring.source(r.source_id);
        const seg = this.anchoring.segment(r.segment_id);
        if (source && seg) {
          const spans = r.end_segment_id !== null;
          match = verificationMatch(source, toAnchorSegment(seg), {
            start: r.start_offset,
            end: r.end_offset,
            spans,
            method: r.match_method ?? 'fuzzy',
            text: r.matched_text ?? '',
          });
        }
      }
      const d = data.get(c.id) ?? this.resultData(r);
      const item: VerificationCitation = { marker: c.marker, status: d.status, verdict: d.verdict, score: d.score, match, notes: d.notes };
      if (d.judge) item.judge = d.judge;
      const row = closestRows.get(c.id);
      const closest = row ? closestMatch(this.anchoring, row) : null;
      if (closest) item.closest = closest;
      return [item];
    });
    return { format: VERIFICATION_FORMAT, verifiedAt: run.createdAt, answer: { question }, citations: items, summary: run.summary, riskFlags: run.riskFlags };
  }

  /** A just-imported answer's summary: its row without the text, and its latest run. */
  imported(answerId: number, citationCount: number): AnswerImported {
    const a = this.requireAnswer(answerId);
    const run = this.store.latestRun(answerId);
    return {
      answer: { id: a.id, format: a.format, origin: a.origin, question: a.question, createdAt: a.created_at },
      citationCount,
      run: run ? this.runData(run) : null,
    };
  }

  get(answerId: number): AnswerDetail {
    const a = this.requireAnswer(answerId);
    const citations = this.store.citations(answerId);
    const runRow = this.store.latestRun(answerId);
    const run = runRow ? this.runData(runRow) : null;
    const results = new Map<number, ResultRow>();
    const data = new Map<number, CitationResultData>();
    const closestRows = new Map<number, ClosestPassageRow>();
    if (runRow) {
      const opinions = this.extras.opinions(runRow.id);
      const closest = this.extras.closest(runRow.id);
      for (const r of this.store.results(runRow.id)) {
        results.set(r.citation_id, r);
        data.set(r.citation_id, this.resultData(r, opinions.get(r.id), closest.get(r.id)));
        const near = closest.get(r.id);
        if (near) closestRows.set(r.citation_id, near);
      }
    }
    const trails = new Map<number, ReviewRow[]>();
    for (const row of this.store.answerReviews(answerId)) trails.set(row.citation_id, [...(trails.get(row.citation_id) ?? []), row]);
    // An agent session verifies one citation per run: the others keep their own newest result.
    for (const c of citations) {
      if (results.has(c.id)) continue;
      const latest = this.store.latestResult(c.id);
      if (latest) {
        results.set(c.id, latest);
        data.set(c.id, this.resultData(latest));
      }
    }
    const details = citations.map((c) => this.detailOf(c, data.get(c.id) ?? null, trails.get(c.id) ?? []));
    return {
      answer: { id: a.id, format: a.format, origin: a.origin, question: a.question, answerText: a.answer_text, createdAt: a.created_at },
      citations: details,
      run,
      runCount: this.store.runs(answerId).length,
      verification: run ? this.storedVerification(a.question, run, citations, results, data, closestRows) : null,
    };
  }

  /** A citation's card: its row, its source, its result and its review trail. */
  detailOf(c: CitationRow, result: CitationResultData | null, trail: readonly ReviewRow[]): CitationDetail {
    const src = c.source_id !== null ? this.anchoring.source(c.source_id) : undefined;
    return {
      id: c.id,
      ordinal: c.ordinal,
      marker: c.marker,
      claim: c.claim,
      quote: c.quote,
      context: c.context,
      source: src ? { id: src.id, fileName: src.file_name, sha256: src.sha256, title: src.title } : null,
      unknownSource: c.unknown_reference,
      claimedLocator: parseJson<StoredClaimedLocator>(c.claimed_locator, {}),
      method: c.method,
      confidence: c.confidence,
      createdAt: c.created_at,
      result,
      ...trailOf(trail),
    };
  }

  /** Runs of an answer, oldest first (for history views and tests). */
  runs(answerId: number): RunData[] {
    return this.store.runs(answerId).map((r) => this.runData(r));
  }

  results(runId: number): CitationResultData[] {
    const opinions = this.extras.opinions(runId);
    const closest = this.extras.closest(runId);
    return this.store.results(runId).map((r) => this.resultData(r, opinions.get(r.id), closest.get(r.id)));
  }
}
