/**
 * Exports an answer as a verified report (issue 9): gathers the stored answer, its latest
 * verification run (running one first when there is none), every citation's review trail, a fresh
 * health check of its sources and the audit head, lets the pure builder (shared/report/build.ts)
 * make the report, renders it and writes the file atomically.
 */
import path from 'node:path';
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { ExportProgress } from '../../../shared/contract/events.ts';
import type { ExportInput, ExportPreviewInput, ExportResult } from '../../../shared/contract/export-schemas.ts';
import { buildReport, reportMatch, type CitationInput, type SourceInput } from '../../../shared/report/build.ts';
import { reportOutline } from '../../../shared/report/outline.ts';
import type { Report, ReportOptions } from '../../../shared/report/schema.ts';
import type { EventBus } from '../events.ts';
import type { WorkerPool } from '../ingest/worker-pool.ts';
import type { HealthService } from '../health/health-service.ts';
import { sha256Bytes } from '../hashing/sha256.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { excerptsFor, throwIfCancelled } from './excerpts.ts';
import { addPdfOutline } from './pdf-outline.ts';
import { chromiumPrinter, type PdfPrinter } from './pdf-print.ts';
import { renderReport } from './render-report.ts';
import { checkReport, type ReportCheckDeps, type ReportCheckResult } from './report-check.ts';
import type { ReportReads } from './report-reads.ts';

export interface ExportDeps {
  /** The answer, its sources and the audit head, from the engine in use (report-reads.ts). */
  reads: ReportReads;
  health: Pick<HealthService, 'checkAll'>;
  appVersion: string;
  workspaceDir: string;
  /** Prints the HTML report to PDF (Chromium found as CHROMIUM_PATH or at the usual paths, unless given). */
  printPdf?: PdfPrinter;
  /** The extraction children, which render the PDF excerpts; without them the excerpts are rendered in this process. */
  pool?: WorkerPool;
  /** Where progress events of exports given a jobId go. */
  events?: EventBus;
  /** The local workspace's stores `evidesk report check` reads (it does not run on a shared workspace). */
  check?: Omit<ReportCheckDeps, 'workspaceDir'>;
}

export interface BuildOptions {
  onlyAccepted?: boolean;
  excerpts?: boolean;
  notes?: boolean;
  reviewer?: string | null;
  /** The name to show without remembering it (the preview); `reviewer` is then ignored. */
  reviewerShown?: string | null;
  /** Excerpts for the first this many citations only (the dialog's preview). */
  excerptLimit?: number;
  signal?: AbortSignal;
  onPhase?: (phase: ExportProgress['phase'], done?: number, total?: number) => void;
}

/** Citations whose excerpts the preview renders: about what its first screen shows. */
const PREVIEW_EXCERPTS = 3;

export interface BuiltReport {
  report: Report;
  verifiedFirst: boolean;
  missingSources: number;
}

const sha256Hex = (bytes: Uint8Array): string => sha256Bytes(bytes);

export class ExportService {
  private readonly deps: ExportDeps;
  /** Running exports that were given a jobId, to cancel them by it. */
  private readonly jobs = new Map<string, AbortController>();
  constructor(deps: ExportDeps) {
    this.deps = deps;
  }

  /** The reviewer name: the one given (remembered for next time; empty clears it), else the one remembered. */
  private reviewer(given: string | null | undefined): string | null {
    if (given === undefined) return this.deps.reads.lastReviewer();
    const name = given?.trim() ? given.trim() : null;
    this.deps.reads.rememberReviewer(name);
    return name;
  }

  /** The report model of an answer, as of now. */
  async build(answerId: number, opts: BuildOptions = {}): Promise<BuiltReport> {
    const { reads, health } = this.deps;
    let detail = await reads.detail(answerId);
    const verifiedFirst = detail.run === null;
    if (verifiedFirst) {
      opts.onPhase?.('verifying');
      detail = await reads.verify(answerId);
    }
    throwIfCancelled(opts.signal);
    opts.onPhase?.('checking');
    const run = detail.run;
    if (!run) throw new AppError('INTERNAL', `Answer ${answerId} has no verification run even after verifying it.`);

    // The sources the citations point at: the matched version where there is a match, else the named one.
    const sourceIdOf = (c: CitationDetail): number | null => c.result?.sourceId ?? c.source?.id ?? null;
    const sourceIds = [...new Set(detail.citations.map(sourceIdOf).filter((id): id is number => id !== null))];
    const checked = sourceIds.length > 0 ? await health.checkAll(sourceIds) : { sources: [] };
    const healthById = new Map(checked.sources.map((s) => [s.id, s]));

    const properties = await reads.properties(sourceIds);
    const rows = await Promise.all(sourceIds.map((id) => reads.source(id)));
    const sourceInputs: SourceInput[] = [];
    const missingWithSnapshot = new Set<number>();
    for (const [i, id] of sourceIds.entries()) {
      const row = rows[i];
      if (!row) continue;
      const h = healthById.get(id);
      const state = h?.health ?? 'unchecked';
      if (state !== 'ok' && row.snapshot !== null) missingWithSnapshot.add(id);
      sourceInputs.push({
        id,
        title: row.title,
        fileName: row.file_name,
        path: h?.path ?? row.current_path,
        sha256: row.sha256,
        size: row.byte_size,
        kind: row.kind,
        health: state,
        snapshot: row.snapshot !== null,
        // From the file's own properties; without them the bibliography names the title alone.
        authors: properties.get(id)?.authors ?? [],
        date: properties.get(id)?.published ?? null,
      });
    }
    const rowOf = new Map(sourceInputs.map((s) => [s.id, s]));

    const citations: CitationInput[] = detail.citations.map((c) => {
      const r = c.result;
      const sid = sourceIdOf(c);
      const src = sid === null ? undefined : rowOf.get(sid);
      const notes = [...(r?.notes ?? [])];
      if (sid !== null && src && src.health !== 'ok') {
        notes.push(
          missingWithSnapshot.has(sid)
            ? `${src.fileName} was ${src.health === 'missing' ? 'missing' : 'changed'} at export; the report relies on the workspace's snapshot of the verified bytes.`
            : `${src.fileName} was ${src.health === 'missing' ? 'missing' : 'changed'} at export and the workspace has no snapshot of it.`,
        );
      }
      const { quotePrefix: _p, quoteSuffix: _s, ...claimed } = c.claimedLocator;
      return {
        id: c.id,
        marker: c.marker,
        claim: c.claim,
        quote: c.quote,
        context: c.context,
        sourceId: sid,
        unknownSource: c.unknownSource,
        claimed,
        ...(r?.judge ? { judge: r.judge } : {}),
        status: r?.status ?? 'not_found',
        verdict: r?.verdict ?? 'not_found',
        score: r?.score ?? 0,
        match:
          r?.place && src && r.method
            ? reportMatch(r.place, { sha256: src.sha256, pageLabel: r.pageLabel, method: r.method, text: r.matchedText ?? '' })
            : null,
        notes,
        reviews: c.history.map((row) => ({ decision: row.decision, note: row.note, at: row.createdAt, reviewer: row.reviewer })),
      };
    });

    throwIfCancelled(opts.signal);
    if (opts.excerpts ?? true) {
      const wanted = opts.excerptLimit === undefined ? detail.citations : detail.citations.slice(0, opts.excerptLimit);
      opts.onPhase?.('excerpts', 0, wanted.length);
      const made = await excerptsFor(wanted, {
        sources: reads.excerpts,
        workspaceDir: this.deps.workspaceDir,
        sourceInputs,
        ...(this.deps.pool ? { pool: this.deps.pool } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        onProgress: (done, total) => opts.onPhase?.('excerpts', done, total),
      });
      for (const c of citations) {
        const x = made.get(c.id);
        if (!x) continue;
        if ('excerpt' in x) c.excerpt = x.excerpt;
        else c.notes = [...c.notes, x.note];
      }
    }

    throwIfCancelled(opts.signal);
    opts.onPhase?.('rendering');
    const options: ReportOptions = {
      citations: opts.onlyAccepted ? 'accepted' : 'all',
      excerpts: opts.excerpts ?? true,
      notes: opts.notes ?? true,
      reviewer: opts.reviewerShown !== undefined ? opts.reviewerShown : this.reviewer(opts.reviewer),
    };
    const head = await reads.auditHead();
    const report = buildReport(
      {
        answer: { id: detail.answer.id, origin: detail.answer.origin, question: detail.answer.question, text: detail.answer.answerText },
        citations,
        sources: sourceInputs,
        provenance: {
          workspaceId: await reads.workspaceId(),
          runId: run.id,
          appVersion: this.deps.appVersion,
          exportedAt: new Date().toISOString(),
          auditHead: head.count > 0 ? head.hash : null,
        },
        options,
      },
      sha256Hex,
    );
    const missingSources = report.sources.filter((s) => s.health === 'missing').length;
    return { report, verifiedFirst, missingSources };
  }

  /**
   * Builds, renders and writes the report; the file is complete or absent (EXPORT_FAILED, or
   * EXPORT_CANCELLED when `answers.cancelExport` stopped it). `printPdf` overrides the PDF printer
   * for one call (the command line's own environment). With a jobId, progress events go out on the
   * event bus.
   */
  async export(input: ExportInput, printPdf?: PdfPrinter): Promise<ExportResult> {
    const { jobId } = input;
    if (jobId !== undefined && this.jobs.has(jobId)) throw new AppError('INVALID_INPUT', `An export named ${jobId} is already running.`);
    const controller = new AbortController();
    if (jobId !== undefined) this.jobs.set(jobId, controller);
    const emit = (phase: ExportProgress['phase'], done = 0, total = 0) => {
      if (jobId !== undefined) this.deps.events?.emit({ type: 'export.progress', jobId, phase, done, total });
    };
    // Excerpt progress comes per citation; a 2,000-citation report need not send 2,000 events.
    let lastSent = 0;
    const onPhase = (phase: ExportProgress['phase'], done = 0, total = 0) => {
      const now = Date.now();
      if (phase === 'excerpts' && done > 0 && done < total && now - lastSent < 100) return;
      lastSent = now;
      emit(phase, done, total);
    };
    try {
      const result = await this.run(input, { signal: controller.signal, onPhase }, printPdf);
      emit('done');
      return result;
    } catch (e) {
      const cancelled = e instanceof AppError && e.code === 'EXPORT_CANCELLED';
      emit(cancelled ? 'cancelled' : 'failed');
      throw e;
    } finally {
      if (jobId !== undefined) this.jobs.delete(jobId);
    }
  }

  /** Stops the running export named `jobId`; false when there is none. */
  cancel(jobId: string): boolean {
    const job = this.jobs.get(jobId);
    job?.abort();
    return job !== undefined;
  }

  private async run(input: ExportInput, control: Pick<BuildOptions, 'signal' | 'onPhase'>, printPdf?: PdfPrinter): Promise<ExportResult> {
    const { signal, onPhase } = control;
    const built = await this.build(input.id, { ...input, ...control });
    let content: string | Uint8Array;
    if (input.format === 'pdf') {
      const print = printPdf ?? this.deps.printPdf ?? chromiumPrinter();
      const html = (await renderReport(built.report, 'html')).content;
      throwIfCancelled(signal);
      onPhase?.('printing');
      content = await addPdfOutline(await print(html, signal), reportOutline(built.report));
    } else {
      content = (await renderReport(built.report, input.format, input.style ?? 'bibtex')).content;
    }
    throwIfCancelled(signal);
    onPhase?.('writing');
    const bytes = writeFileAtomic(input.path, content);
    const { report } = built;
    return {
      path: path.resolve(input.path),
      format: input.format,
      bytes,
      contentHash: report.contentHash,
      runId: report.provenance.runId,
      verifiedFirst: built.verifiedFirst,
      summary: {
        total: report.summary.total,
        included: report.summary.included,
        unresolved: report.summary.unresolved.length,
        missingSources: built.missingSources,
      },
    };
  }

  /**
   * The report's HTML as the dialog previews it: the whole report, with excerpts for its first few
   * citations only (the first screen), so that even a 2,000-citation answer previews at once.
   * The reviewer name given is shown but not remembered.
   */
  async preview(input: ExportPreviewInput): Promise<string> {
    const reviewer = input.reviewer === undefined ? this.deps.reads.lastReviewer() : input.reviewer?.trim() || null;
    const { reviewer: _r, ...rest } = input;
    const built = await this.build(input.id, { ...rest, excerptLimit: PREVIEW_EXCERPTS, reviewerShown: reviewer });
    return (await renderReport(built.report, 'html')).content;
  }

  /** `evidesk report check`: what of a report's JSON still holds in this workspace. */
  check(text: string, name: string): Promise<ReportCheckResult> {
    const { check, workspaceDir } = this.deps;
    if (!check) throw new AppError('SHARED_DATABASE_UNSUPPORTED', 'Checking a report is not available on a shared database yet; it works on a local workspace.');
    return checkReport(text, name, { ...check, workspaceDir });
  }
}
