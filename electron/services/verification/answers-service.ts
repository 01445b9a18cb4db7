/**
 * Answers end to end: import (parse → verify → store, one transaction), re-verification (a new
 * run; old runs stay), the answerers, re-anchoring in a new source version, and the audit chain.
 * Every write appends an audit row in the same transaction; reading answers back is answer-reads.ts's.
 * The handlers' writes and replies go through the engine in use (EvidenceStore's `runs` and
 * `answers` areas, issue 13); the synchronous methods kept for exports and links write SQLite.
 */
import type {
  AnswerDetail,
  AnswerFile,
  AnswerImported,
  AnswerSummaryData,
  CitationResultData,
  ReanchorResult,
  RunData,
  StoredClaimedLocator,
} from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { SourceRef, type ImportedAnswer } from '../../../shared/imports/model.ts';
import { VerificationRiskFlag, type VerificationResult } from '../../../shared/verification/result-schema.ts';
import { answerOffline } from '../answerers/offline.ts';
import { answerWithModel, resolveModelSettings, type ModelSettings } from '../answerers/openai-compatible.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { AnswersStore, CitationRow } from '../store/answers-store.ts';
import { parseJson } from '../../../shared/json-or.ts';
import { parseAnswerFile } from './parse-answer-file.ts';
import { verificationResult } from './verification-output.ts';
import { citationInputs, VERIFIER_NAME, type AnswerVerification, type CitationInput, type Verifier } from './verifier.ts';
import { PoolVerifier } from './pool-reads.ts';
import { JUDGE_NAME, ModelJudge } from './model-judge.ts';
import type { JudgeOpinion } from '../../../shared/verification/judge.ts';
import { ResultExtrasStore } from '../store/result-extras-store.ts';
import type { EventBus } from '../events.ts';
import { newOutcomes, VERIFY_BATCH, verifyInBatches, VerifyJobs, type BatchDeps } from './verify-batches.ts';
import { referenceText } from './source-names.ts';
import { answerNotFound, AnswerReads, storedRiskFlags } from './answer-reads.ts';
import { AnswerCards } from './answer-cards.ts';
import { readAnswerDetail, readAnswerList, readImported } from './answer-detail.ts';
import { reanchorCitation } from './reanchor.ts';
import type { EvidenceStore, NewAnswerImport, NewRun } from '../store/evidence-store.ts';
import { RunWritesStore } from '../store/run-writes-store.ts';
import { sqliteEvidenceStore } from '../store/sqlite-evidence-store.ts';

export interface AnswersServiceOptions {
  model?: Partial<ModelSettings>;
  env?: Record<string, string | undefined>;
  /** Whether the model judge is on (the workspace setting); off when not given. */
  judgeEnabled?: () => boolean;
  /** Where a verification in batches announces each batch (issue 16). */
  events?: EventBus;
  /** Answers of more citations than this are verified in batches of this many (VERIFY_BATCH unless given). */
  verifyBatch?: number;
  /**
   * The engine the handlers' imports, verifications and replies write and read (issue 13);
   * default: SQLite over the store's database. The anchoring reads stay the workspace's own.
   */
  evidence?: EvidenceStore;
}

/** Where an import's citations point: a resolved source, else the reference as text. */
type CitationSources = readonly { sourceId: number | null; unknownReference: string | null }[];

function verifierName(judged: boolean): string {
  return judged ? `${VERIFIER_NAME}+${JUDGE_NAME}` : VERIFIER_NAME;
}

/** A whole run as the store records it. */
function runOf(v: AnswerVerification, opinions: readonly (JudgeOpinion | null)[], judged: boolean): NewRun {
  return { verifier: verifierName(judged), summary: v.summary, riskFlags: v.riskFlags, outcomes: newOutcomes(v.outcomes, opinions) };
}


function storedLocator(c: ImportedAnswer['citations'][number]): StoredClaimedLocator {
  const l: StoredClaimedLocator = { ...c.locator };
  if (c.prefix) l.quotePrefix = c.prefix;
  if (c.suffix) l.quoteSuffix = c.suffix;
  return l;
}

/** A verification already made (with the judge's opinions) for save to store. */
interface SaveDone {
  verification: AnswerVerification;
  opinions: (JudgeOpinion | null)[];
  judged: boolean;
}

export class AnswersService {
  private readonly store: AnswersStore;
  private readonly anchoring: AnchoringStore;
  private readonly verifier: Verifier;
  private readonly options: AnswersServiceOptions;
  private readonly extras: ResultExtrasStore;
  private readonly jobs = new VerifyJobs();
  private readonly reads: AnswerReads;
  /** SQLite's writes of answers and runs, for the synchronous callers (exports, links, benches). */
  private readonly writes: RunWritesStore;
  /** The engine in use for the handlers' writes and replies. */
  private readonly evidence: EvidenceStore;
  /** The answer opened lean and its cards in pages (issue 16). */
  readonly cards: AnswerCards;
  /** On PostgreSQL, the verifier over the shared pool's sources (pool-reads.ts); null on SQLite. */
  private readonly pool: PoolVerifier | null;

  constructor(store: AnswersStore, anchoring: AnchoringStore, verifier: Verifier, options: AnswersServiceOptions = {}) {
    this.store = store;
    this.anchoring = anchoring;
    this.verifier = verifier;
    this.options = options;
    this.extras = new ResultExtrasStore(store);
    this.writes = new RunWritesStore(store, this.extras);
    this.evidence = options.evidence ?? sqliteEvidenceStore(store.db);
    this.reads = new AnswerReads(store, anchoring, this.extras, this.jobs);
    this.cards = new AnswerCards(this.jobs);
    this.pool = this.evidence.engine === 'postgres' ? new PoolVerifier(this.evidence.sources) : null;
  }

  /** The verifier for these citations: on SQLite the workspace's; on PostgreSQL one over the shared pool's sources. */
  private verifierOf(inputs: readonly CitationInput[]): Promise<Verifier> {
    return this.pool ? this.pool.verifierFor(inputs) : Promise.resolve(this.verifier);
  }

  /**
   * The model judge when it is to be asked: `wanted` (a caller's --judge) else the workspace
   * setting. Asked for by name without an endpoint, it is an error; on by setting, it is skipped.
   */
  judgeFor(wanted: boolean | undefined): ModelJudge | null {
    const on = wanted ?? this.options.judgeEnabled?.() ?? false;
    if (!on) return null;
    const settings = resolveModelSettings(this.options.model, this.options.env ?? process.env);
    if (!settings) {
      if (wanted) throw new AppError('MODEL_NOT_CONFIGURED', 'The model judge needs a model endpoint. Set EVIDESK_MODEL_BASE_URL (e.g. http://127.0.0.1:8080/v1) and EVIDESK_MODEL, or verify without the model judge.');
      return null;
    }
    return new ModelJudge(settings);
  }

  /** The configured endpoint's model, or null: the judge and the model answerer need one. */
  modelName(): string | null {
    return resolveModelSettings(this.options.model, this.options.env ?? process.env)?.model ?? null;
  }

  /** The deterministic verification, then the judge's opinions when it is on. */
  private async judged(v: AnswerVerification, judge: ModelJudge | null): Promise<{ verification: AnswerVerification; opinions: (JudgeOpinion | null)[] }> {
    if (!judge) return { verification: v, opinions: v.outcomes.map(() => null) };
    return judge.judge(v);
  }

  /** Verifies an answer file without writing anything (deterministic checks only). */
  check({ content, fileName }: AnswerFile): VerificationResult {
    const answer = parseAnswerFile(content, fileName);
    return verificationResult(answer.question, this.verifier.verifyAll(citationInputs(answer)), new Date().toISOString());
  }

  /** As check, with the model judge when it is asked for or on. */
  async checkJudged(file: AnswerFile): Promise<VerificationResult> {
    const judge = this.judgeFor(file.judge);
    if (!judge && !this.pool) return this.check(file);
    const answer = parseAnswerFile(file.content, file.fileName);
    const inputs = citationInputs(answer);
    const { verification, opinions } = await this.judged((await this.verifierOf(inputs)).verifyAll(inputs), judge);
    return verificationResult(answer.question, verification, new Date().toISOString(), opinions);
  }

  importFile({ content, fileName }: AnswerFile): AnswerDetail {
    const answer = parseAnswerFile(content, fileName);
    return this.get(this.save(answer, `import:${fileName}`, content));
  }

  /**
   * As importFile, with the model judge when it is asked for or on; an answer of more citations
   * than a batch is stored first and verified in batches (verify-batches.ts).
   */
  async importFileJudged(file: AnswerFile): Promise<AnswerDetail> {
    return this.detail(this.evidence, (await this.importStored(file)).answerId);
  }

  /**
   * As importFileJudged, but replies with the stored answer's summary and run only: a large
   * answer's citations are never all held at once (issue 16), the caller pages them.
   */
  async importSummary(file: AnswerFile): Promise<AnswerImported> {
    const { answerId, citationCount } = await this.importStored(file);
    return readImported(this.evidence, answerId, citationCount, this.jobs);
  }

  private async importStored(file: AnswerFile): Promise<{ answerId: number; citationCount: number }> {
    const judge = this.judgeFor(file.judge);
    const answer = parseAnswerFile(file.content, file.fileName);
    const citationCount = answer.citations.length;
    if (citationCount > this.batchSize) return { answerId: await this.importInBatches(answer, file, judge), citationCount };
    if (!judge) return { answerId: await this.saveTo(answer, `import:${file.fileName}`, file.content), citationCount };
    const inputs = citationInputs(answer);
    const { verification, opinions } = await this.judged((await this.verifierOf(inputs)).verifyAll(inputs), judge);
    return { answerId: await this.saveTo(answer, `import:${file.fileName}`, file.content, [], { verification, opinions, judged: true }), citationCount };
  }

  private get batchSize(): number {
    return Math.max(1, this.options.verifyBatch ?? VERIFY_BATCH);
  }

  private batchDeps(verifier: Verifier): BatchDeps {
    return { runs: this.evidence.runs, verifier, jobs: this.jobs, events: this.options.events, batchSize: this.batchSize };
  }

  /** Stops a verification in batches by its jobId after its current batch (false when none runs). */
  cancelVerify(jobId: string): boolean {
    return this.jobs.cancel(jobId);
  }

  /**
   * A large import: the answer and its citations (their sources resolved first, with the same
   * notes) in one transaction with the run's start, then the verification in batches.
   */
  private async importInBatches(answer: ImportedAnswer, file: AnswerFile, judge: ModelJudge | null): Promise<number> {
    const verifier = await this.verifierOf(citationInputs(answer));
    const inputs = citationInputs(answer).map((c): CitationInput => {
      const resolved = verifier.resolve(c.sourceRef);
      // An unresolved reference is resolved again as the citation is verified: its notes come then.
      return resolved.source ? { ...c, sourceId: resolved.source.id, notes: [...(c.notes ?? []), ...resolved.notes] } : c;
    });
    const sources = inputs.map((c) => ({ sourceId: c.sourceId ?? null, unknownReference: c.sourceId ? null : referenceText(c.sourceRef) }));
    const done = await verifyInBatches(
      this.batchDeps(verifier),
      {
        citationCount: inputs.length,
        inputs: (from, to) => inputs.slice(from, to),
        extraFlags: [],
        judge,
        verifierName: verifierName(judge !== null),
        start: { import: this.importOf(answer, `import:${file.fileName}`, file.content, sources) },
      },
      this.jobs.open(file.jobId),
    );
    return done.answerId;
  }

  /** The verification of an answer about to be stored (the given one, else the deterministic one). */
  private verificationOf(answer: ImportedAnswer, extraFlags: VerificationRiskFlag[], done?: SaveDone, verifier: Verifier = this.verifier): { verification: AnswerVerification; run: NewRun; sources: CitationSources } {
    const verification = done?.verification ?? verifier.verifyAll(citationInputs(answer), extraFlags);
    const sources = verification.outcomes.map((o) => ({ sourceId: o.source?.id ?? null, unknownReference: o.unknownReference }));
    return { verification, run: runOf(verification, done?.opinions ?? [], done?.judged ?? false), sources };
  }

  /**
   * Verifies, then stores the answer, its citations, the run, its results and the audit rows in
   * one transaction: after a crash the answer is either fully present or absent. On SQLite, for
   * the synchronous callers; the handlers store through the engine in use (saveTo).
   */
  save(answer: ImportedAnswer, origin: string, raw: string | null, extraFlags: VerificationRiskFlag[] = [], done?: SaveDone): number {
    const { run, sources } = this.verificationOf(answer, extraFlags, done);
    return this.writes.importAnswer(this.importOf(answer, origin, raw, sources), run, new Date().toISOString()).answerId;
  }

  /** As save, through the engine in use. */
  private async saveTo(answer: ImportedAnswer, origin: string, raw: string | null, extraFlags: VerificationRiskFlag[] = [], done?: SaveDone): Promise<number> {
    const { run, sources } = this.verificationOf(answer, extraFlags, done, done ? this.verifier : await this.verifierOf(citationInputs(answer)));
    return (await this.evidence.runs.importAnswer(this.importOf(answer, origin, raw, sources), run, new Date().toISOString())).answerId;
  }

  /** The answer and its citations (each with its resolved source or unknown reference) as the store records them. */
  private importOf(answer: ImportedAnswer, origin: string, raw: string | null, sources: CitationSources): NewAnswerImport {
    return {
      answer: { format: answer.format, question: answer.question, answerText: answer.answerText, origin, raw },
      citations: answer.citations.map((c, ordinal) => ({
        marker: c.marker,
        claim: c.claim,
        quote: c.quote,
        context: c.context,
        sourceId: sources[ordinal]?.sourceId ?? null,
        unknownReference: sources[ordinal]?.unknownReference ?? null,
        claimedLocator: storedLocator(c),
        method: c.method ?? null,
        confidence: c.confidence ?? null,
      })),
    };
  }

  private requireAnswer(id: number) {
    return this.reads.requireAnswer(id);
  }

  /** A stored citation as verifier input: its resolved source, else its reference resolved again. */
  private inputOf(c: CitationRow): CitationInput {
    const stored = parseJson<StoredClaimedLocator>(c.claimed_locator, {});
    const { quotePrefix, quoteSuffix, ...locator } = stored;
    const ref = c.unknown_reference !== null ? SourceRef.safeParse(parseJson(c.unknown_reference, {})) : null;
    return {
      marker: c.marker,
      claim: c.claim,
      quote: c.quote,
      context: c.context,
      sourceRef: ref?.success ? ref.data : {},
      sourceId: c.source_id,
      locator,
      prefix: quotePrefix,
      suffix: quoteSuffix,
    };
  }

  /** Flags about the answer text itself (uncited model sentences): they do not change between runs. */
  private carriedFlags(latestRiskFlags: string | null): VerificationRiskFlag[] {
    return storedRiskFlags(latestRiskFlags).filter((f) => f.code === 'uncited_sentence');
  }

  /** Re-verification on SQLite, for the synchronous callers: a new run over the current citations; earlier runs are never touched. */
  verify(answerId: number): AnswerDetail {
    this.requireAnswer(answerId);
    const citations = this.store.citations(answerId);
    const verification = this.verifier.verifyAll(citations.map((c) => this.inputOf(c)), this.carriedFlags(this.store.latestRun(answerId)?.risk_flags ?? null));
    this.writes.recordRun(answerId, citations.map((c) => c.id), runOf(verification, [], false), new Date().toISOString());
    return this.get(answerId);
  }

  /**
   * Re-verification through the engine in use, with the model judge when it is on (the setting)
   * or asked for: a new run over the current citations, earlier runs never touched. An answer of
   * more citations than a batch is verified in batches (a cancel by jobId stops it between them).
   */
  async verifyJudged(answerId: number, wanted?: boolean, jobId?: string): Promise<AnswerDetail> {
    const judge = this.judgeFor(wanted);
    const { answers } = this.evidence;
    if (!(await answers.answer(answerId))) throw answerNotFound(answerId);
    const [citations, runs] = await Promise.all([answers.citations(answerId), answers.runs(answerId)]);
    const extraFlags = this.carriedFlags(runs[runs.length - 1]?.risk_flags ?? null);
    const verifier = await this.verifierOf(citations.map((c) => this.inputOf(c)));
    if (citations.length > this.batchSize) {
      await verifyInBatches(
        this.batchDeps(verifier),
        {
          citationCount: citations.length,
          inputs: (from, to) => citations.slice(from, to).map((c) => this.inputOf(c)),
          extraFlags,
          judge,
          verifierName: verifierName(judge !== null),
          start: { answerId, citationIds: citations.map((c) => c.id) },
        },
        this.jobs.open(jobId),
      );
      return this.detail(this.evidence, answerId);
    }
    const checked = verifier.verifyAll(citations.map((c) => this.inputOf(c)), extraFlags);
    const { verification, opinions } = await this.judged(checked, judge);
    await this.evidence.runs.recordRun(answerId, citations.map((c) => c.id), runOf(verification, opinions, judge !== null), new Date().toISOString());
    return this.detail(this.evidence, answerId);
  }

  async ask(question: string, useModel: boolean): Promise<AnswerDetail> {
    if (!useModel) {
      const answer = answerOffline(this.anchoring, question);
      return this.detail(this.evidence, await this.saveTo(answer, 'offline', null));
    }
    const settings = resolveModelSettings(this.options.model, this.options.env ?? process.env);
    const { answer, riskFlags, raw } = await answerWithModel(this.anchoring, question, settings);
    return this.detail(this.evidence, await this.saveTo(answer, `model:${settings?.model ?? 'unknown'}`, raw, riskFlags));
  }

  list(): AnswerSummaryData[] {
    return this.reads.list();
  }

  get(answerId: number): AnswerDetail {
    return this.reads.get(answerId);
  }

  /** As list, read through the store interface of the engine in use (issue 13). */
  listFrom(store: Pick<EvidenceStore, 'answers' | 'reviews'>): Promise<AnswerSummaryData[]> {
    return readAnswerList(store, this.jobs);
  }

  /** As get, read through the store interface of the engine in use (issue 13). */
  detail(store: Pick<EvidenceStore, 'answers' | 'reviews' | 'sources'>, answerId: number): Promise<AnswerDetail> {
    return readAnswerDetail(store, answerId, this.jobs);
  }

  /**
   * Finds a citation's quote again in another version of its source (default: the newest),
   * using the stored anchor's prefix and suffix to choose between repeats, and says what moved.
   */
  reanchor(citationId: number, targetSourceId?: number): ReanchorResult {
    return reanchorCitation({ store: this.store, anchoring: this.anchoring, verifier: this.verifier }, citationId, targetSourceId);
  }

  /** Runs of an answer, oldest first (for history views and tests). */
  runs(answerId: number): RunData[] {
    return this.reads.runs(answerId);
  }

  results(runId: number): CitationResultData[] {
    return this.reads.results(runId);
  }
}
