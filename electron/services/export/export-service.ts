/**
 * Exports an answer as a verified report (issue 9): gathers the stored answer, its latest
 * verification run (running one first when there is none), every citation's review trail, a fresh
 * health check of its sources and the audit head, lets the pure builder (shared/report/build.ts)
 * make the report, renders it and writes the file atomically.
 */
import path from 'node:path';
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { ExportInput, ExportResult } from '../../../shared/contract/export-schemas.ts';
import { buildReport, reportMatch, type CitationInput, type SourceInput } from '../../../shared/report/build.ts';
import type { Report, ReportOptions } from '../../../shared/report/schema.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { HealthService } from '../health/health-service.ts';
import { sha256Bytes } from '../hashing/sha256.ts';
import type { ExportStore } from '../store/export-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import type { AnswersService } from '../verification/answers-service.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { excerptsFor } from './excerpts.ts';
import { chromiumPrinter, type PdfPrinter } from './pdf-print.ts';
import { renderReport } from './render-report.ts';
import { checkReport, type ReportCheckResult } from './report-check.ts';

export interface ExportDeps {
  answers: AnswersService;
  store: ExportStore;
  sources: SourcesStore;
  health: HealthService;
  audit: AuditService;
  appVersion: string;
  workspaceDir: string;
  /** Prints the HTML report to PDF (Chromium found as CHROMIUM_PATH or at the usual paths, unless given). */
  printPdf?: PdfPrinter;
}

export interface BuildOptions {
  onlyAccepted?: boolean;
  excerpts?: boolean;
  notes?: boolean;
  reviewer?: string | null;
}

export interface BuiltReport {
  report: Report;
  verifiedFirst: boolean;
  missingSources: number;
}

const sha256Hex = (bytes: Uint8Array): string => sha256Bytes(bytes);

export class ExportService {
  private readonly deps: ExportDeps;
  constructor(deps: ExportDeps) {
    this.deps = deps;
  }

  /** The reviewer name: the one given (remembered for next time; empty clears it), else the one remembered. */
  private reviewer(given: string | null | undefined): string | null {
    if (given === undefined) return this.deps.store.lastReviewer();
    const name = given?.trim() ? given.trim() : null;
    this.deps.store.rememberReviewer(name);
    return name;
  }

  /** The report model of an answer, as of now. */
  async build(answerId: number, opts: BuildOptions = {}): Promise<BuiltReport> {
    const { answers, store, sources, health, audit } = this.deps;
    let detail = answers.get(answerId);
    const verifiedFirst = detail.run === null;
    if (verifiedFirst) detail = answers.verify(answerId);
    const run = detail.run;
    if (!run) throw new AppError('INTERNAL', `Answer ${answerId} has no verification run even after verifying it.`);

    // The sources the citations point at: the matched version where there is a match, else the named one.
    const sourceIdOf = (c: CitationDetail): number | null => c.result?.sourceId ?? c.source?.id ?? null;
    const sourceIds = [...new Set(detail.citations.map(sourceIdOf).filter((id): id is number => id !== null))];
    const checked = sourceIds.length > 0 ? await health.checkAll(sourceIds) : { sources: [] };
    const healthById = new Map(checked.sources.map((s) => [s.id, s]));

    const properties = sources.properties(sourceIds);
    const sourceInputs: SourceInput[] = [];
    const missingWithSnapshot = new Set<number>();
    for (const id of sourceIds) {
      const row = sources.get(id);
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

    if (opts.excerpts ?? true) {
      const made = await excerptsFor(detail.citations, { sources, workspaceDir: this.deps.workspaceDir, sourceInputs });
      for (const c of citations) {
        const x = made.get(c.id);
        if (!x) continue;
        if ('excerpt' in x) c.excerpt = x.excerpt;
        else c.notes = [...c.notes, x.note];
      }
    }

    const options: ReportOptions = {
      citations: opts.onlyAccepted ? 'accepted' : 'all',
      excerpts: opts.excerpts ?? true,
      notes: opts.notes ?? true,
      reviewer: this.reviewer(opts.reviewer),
    };
    const head = audit.head();
    const report = buildReport(
      {
        answer: { id: detail.answer.id, origin: detail.answer.origin, question: detail.answer.question, text: detail.answer.answerText },
        citations,
        sources: sourceInputs,
        provenance: {
          workspaceId: store.workspaceId(),
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
   * Builds, renders and writes the report; the file is complete or absent (EXPORT_FAILED).
   * `printPdf` overrides the PDF printer for one call (the command line's own environment).
   */
  async export(input: ExportInput, printPdf?: PdfPrinter): Promise<ExportResult> {
    const built = await this.build(input.id, input);
    let content: string | Uint8Array;
    if (input.format === 'pdf') {
      const print = printPdf ?? this.deps.printPdf ?? chromiumPrinter();
      content = await print(renderReport(built.report, 'html').content);
    } else {
      content = renderReport(built.report, input.format, input.style ?? 'bibtex').content;
    }
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

  /** `evidesk report check`: what of a report's JSON still holds in this workspace. */
  check(text: string, name: string): Promise<ReportCheckResult> {
    const { sources, store, audit, workspaceDir } = this.deps;
    return checkReport(text, name, { sources, store, audit, workspaceDir });
  }
}
