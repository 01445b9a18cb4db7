/**
 * Verification in batches (issue 16 item 4). A large answer's citations are verified a batch at a
 * time; each batch's results are committed in a transaction of their own and announced by an
 * event, and the event loop is free between batches (progress reaches the window, a cancel and
 * other requests get through). Only the batch in hand is held, plus the few fields per citation
 * the run's summary needs, so memory does not grow with the answer's matches and notes.
 *
 * Such a run records how many citations it plans to verify; its end row (complete or cancelled)
 * carries the summary of the results stored. A cancel stops between batches: the batches done
 * stay, whole, and the citations not reached keep their earlier results, if any.
 */
import type { VerificationRiskFlag } from '../../../shared/verification/result-schema.ts';
import { summariseLedger, type LedgerItem } from '../../../shared/verification/index.ts';
import type { JudgeOpinion } from '../../../shared/verification/judge.ts';
import type { EventBus } from '../events.ts';
import type { BatchedRunStart, NewOutcome, RunsArea, StartedRun } from '../store/evidence-store.ts';
import type { ModelJudge } from './model-judge.ts';
import { closestOf, resultRow } from './verification-output.ts';
import { ledgerItem, withLedger, type AnswerVerification, type CitationInput, type CitationOutcome, type Verifier } from './verifier.ts';

/** Citations verified and committed together. */
export const VERIFY_BATCH = 200;

/** One batched verification as its caller named it (jobId), so that a cancel can reach it. */
export interface VerifyJob {
  readonly jobId: string | null;
  cancelled: boolean;
}

/** The batched verifications running now: by jobId for a cancel, by run for "still running". */
export class VerifyJobs {
  private readonly byId = new Map<string, VerifyJob>();
  private readonly runs = new Set<number>();

  open(jobId: string | undefined): VerifyJob {
    const job: VerifyJob = { jobId: jobId ?? null, cancelled: false };
    if (jobId !== undefined) this.byId.set(jobId, job);
    return job;
  }

  close(job: VerifyJob, runId: number | null): void {
    if (job.jobId !== null && this.byId.get(job.jobId) === job) this.byId.delete(job.jobId);
    if (runId !== null) this.runs.delete(runId);
  }

  started(runId: number): void {
    this.runs.add(runId);
  }

  isRunning(runId: number): boolean {
    return this.runs.has(runId);
  }

  /** Asks a running verification to stop after its current batch; false when none has that jobId. */
  cancel(jobId: string): boolean {
    const job = this.byId.get(jobId);
    if (!job) return false;
    job.cancelled = true;
    return true;
  }
}

export interface BatchDeps {
  /** Where the run is written: the engine in use's `runs` area. */
  runs: RunsArea;
  verifier: Verifier;
  jobs: VerifyJobs;
  events?: EventBus | undefined;
  batchSize: number;
}

export interface BatchedRun {
  /** What the run verifies: the answer's citation ids, in order, and their inputs by range. */
  citationCount: number;
  inputs: (from: number, to: number) => CitationInput[];
  extraFlags: readonly VerificationRiskFlag[];
  judge: ModelJudge | null;
  verifierName: string;
  /**
   * What the run starts from: an import (its answer and citations written in the transaction of
   * the run's start, before the run row), or an answer's stored citations.
   */
  start: BatchedRunStart;
}

export interface BatchedOutcome {
  answerId: number;
  runId: number;
  state: 'complete' | 'cancelled';
  done: number;
}

/** Outcomes as the store records them: each result with its closest passage and judge opinion, if any. */
export function newOutcomes(outcomes: readonly CitationOutcome[], opinions: readonly (JudgeOpinion | null)[]): NewOutcome[] {
  return outcomes.map((o, i) => {
    const { citationId: _, ...result } = resultRow(0, o);
    return { result, closest: closestOf(o), opinion: opinions[i] ?? null };
  });
}

/** Lets timers, I/O and other requests run between batches. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The ledger summary and risk flags of the results stored so far (the run's end). */
function ledgerOf(items: readonly LedgerItem[], extraFlags: readonly VerificationRiskFlag[]): Pick<AnswerVerification, 'summary' | 'riskFlags'> {
  const ledger = summariseLedger(items);
  return { summary: ledger.summary, riskFlags: [...ledger.riskFlags, ...extraFlags] };
}

/**
 * Verifies `run.citationCount` citations a batch at a time (see the module comment). Events:
 * one `verifying` per committed batch, in order, then `done` or `cancelled` (or `failed`, and
 * the error is thrown on: the batches committed stay, the run has no end and reads as interrupted).
 */
export async function verifyInBatches(deps: BatchDeps, run: BatchedRun, job: VerifyJob): Promise<BatchedOutcome> {
  const { runs, verifier, events } = deps;
  const total = run.citationCount;
  const startedAt = new Date().toISOString();
  const pending = ledgerOf([], []);
  let started: StartedRun;
  try {
    started = await runs.beginRun(run.start, { verifier: run.verifierName, summary: pending.summary, riskFlags: pending.riskFlags, planned: total }, startedAt);
  } catch (e) {
    deps.jobs.close(job, null);
    throw e;
  }
  const { answerId, citationIds, runId } = started;
  deps.jobs.started(runId);
  const emit = (phase: 'verifying' | 'done' | 'cancelled' | 'failed', done: number, ids: readonly number[]) =>
    events?.emit({ type: 'answers.verifyProgress', jobId: job.jobId, answerId, runId, phase, done, total, citationIds: [...ids] });
  const items: LedgerItem[] = [];
  try {
    let done = 0;
    while (done < total && !job.cancelled) {
      const to = Math.min(total, done + deps.batchSize);
      const checked = withLedger(run.inputs(done, to).map((c) => verifier.verifyCitation(c)));
      const { verification, opinions } = run.judge ? await run.judge.judge(checked) : { verification: checked, opinions: [] };
      const ids = citationIds.slice(done, to);
      const now = new Date().toISOString();
      await runs.recordBatch(runId, ids, newOutcomes(verification.outcomes, opinions), now);
      for (const o of verification.outcomes) items.push(ledgerItem(o));
      done = to;
      emit('verifying', done, ids);
      await nextTurn();
    }
    const state = done < total ? 'cancelled' : 'complete';
    const end = ledgerOf(items, run.extraFlags);
    const now = new Date().toISOString();
    await runs.endRun(answerId, runId, { state, done, summary: end.summary, riskFlags: end.riskFlags, verifier: run.verifierName, planned: total }, now);
    emit(state === 'complete' ? 'done' : 'cancelled', done, []);
    return { answerId, runId, state, done };
  } catch (e) {
    emit('failed', items.length, []);
    throw e;
  } finally {
    deps.jobs.close(job, runId);
  }
}
