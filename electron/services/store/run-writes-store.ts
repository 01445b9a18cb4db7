/**
 * The writes of answers and verification runs on SQLite (the `runs` area's engine, synchronous):
 * each method is one immediate transaction, the rows and their audit entries in the order the
 * answers service wrote them before the area existed, so chains stay alike. The answers service's
 * synchronous callers (exports, links) use this class directly; everything else goes through the
 * async area (sqlite-evidence-store.ts).
 */
import type { AnswersStore } from './answers-store.ts';
import type { RunEnd } from './answer-rows.ts';
import type { BatchedRunStart, NewAnswerImport, NewOutcome, NewRun, NewRunHeader, StartedRun } from './evidence-store.ts';
import type { ResultExtrasStore } from './result-extras-store.ts';
import { importEntryPayload, runEndEntryPayload, runEntryPayload } from './run-entries.ts';
import type { VerificationSummary } from '../../../shared/verification/result-schema.ts';

export class RunWritesStore {
  private readonly store: AnswersStore;
  private readonly extras: ResultExtrasStore;
  constructor(store: AnswersStore, extras: ResultExtrasStore) {
    this.store = store;
    this.extras = extras;
  }

  importAnswer(imp: NewAnswerImport, run: NewRun, now: string): StartedRun {
    return this.store.transaction(() => {
      const { answerId, citationIds } = this.insertImport(imp, now);
      return { answerId, citationIds, runId: this.insertWholeRun(answerId, citationIds, run, now) };
    });
  }

  recordRun(answerId: number, citationIds: readonly number[], run: NewRun, now: string): number {
    return this.store.transaction(() => this.insertWholeRun(answerId, citationIds, run, now));
  }

  beginRun(start: BatchedRunStart, run: NewRunHeader & { planned: number }, now: string): StartedRun {
    return this.store.transaction(() => {
      const begun = 'import' in start ? this.insertImport(start.import, now) : { answerId: start.answerId, citationIds: [...start.citationIds] };
      const runId = this.store.insertRun(begun.answerId, run.verifier, run.summary, run.riskFlags, now, run.planned);
      return { ...begun, runId };
    });
  }

  recordBatch(runId: number, citationIds: readonly number[], outcomes: readonly NewOutcome[], now: string): void {
    this.store.transaction(() => this.insertOutcomes(runId, citationIds, outcomes, now));
  }

  endRun(answerId: number, runId: number, end: RunEnd & { verifier: string; planned: number; summary: VerificationSummary }, now: string): void {
    this.store.transaction(() => {
      this.store.insertRunEnd(runId, { state: end.state, done: end.done, summary: end.summary, riskFlags: end.riskFlags }, now);
      this.store.appendAudit('answer.verify', runEndEntryPayload(answerId, runId, end.verifier, end.summary.byStatus, end.planned, end.done, end.state), now);
    });
  }

  /** The answer, its citations and the import's entry (inside a transaction). */
  private insertImport(imp: NewAnswerImport, now: string): { answerId: number; citationIds: number[] } {
    const answerId = this.store.insertAnswer(imp.answer, now);
    const citationIds = imp.citations.map((c, ordinal) => this.store.insertCitation({ ...c, answerId, ordinal, supersedesId: null }, now));
    this.store.appendAudit('answer.import', importEntryPayload(answerId, imp.answer, citationIds.length), now);
    return { answerId, citationIds };
  }

  /** A run, its results with their closest passages and opinions, and its entry (inside a transaction). */
  private insertWholeRun(answerId: number, citationIds: readonly number[], run: NewRun, now: string): number {
    const runId = this.store.insertRun(answerId, run.verifier, run.summary, run.riskFlags, now);
    this.insertOutcomes(runId, citationIds, run.outcomes, now);
    this.store.appendAudit('answer.verify', runEntryPayload(answerId, runId, run.verifier, run.summary.byStatus), now);
    return runId;
  }

  private insertOutcomes(runId: number, citationIds: readonly number[], outcomes: readonly NewOutcome[], now: string): void {
    outcomes.forEach((o, i) => {
      const resultId = this.store.insertResult(runId, { ...o.result, citationId: citationIds[i] ?? 0 }, now);
      if (o.closest) this.extras.insertClosest(resultId, o.closest, now);
      if (o.opinion) this.extras.insertOpinion(resultId, o.opinion, now);
    });
  }
}
