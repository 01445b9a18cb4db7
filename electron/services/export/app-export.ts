import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import type { ExportInput, ExportResult } from '../../../shared/contract/export-schemas.ts';
import type { Platform } from '../platform.ts';
import type { ReportReads } from './report-reads.ts';
import type { ExportService } from './export-service.ts';

type DialogInput = Omit<ExportInput, 'path'>;

/** The file name the save dialog proposes: the answer and the format's usual extension. */
export function defaultReportName(input: DialogInput): string {
  const ext = input.format === 'bib' ? (input.style === undefined || input.style === 'bibtex' ? 'bib' : 'txt') : input.format;
  return `evidence-report-answer-${input.id}.${ext}`;
}

/**
 * The app's side of exporting: the main process asks the platform where to save (the page never
 * names a path) and remembers what it wrote, so "Open folder" reveals only those files.
 */
export class AppExport {
  private readonly written = new Set<string>();
  private readonly platform: Platform;
  private readonly exports: ExportService;
  private readonly store: Pick<ReportReads, 'lastReviewer'>;

  constructor(platform: Platform, exports: ExportService, store: Pick<ReportReads, 'lastReviewer'>) {
    this.platform = platform;
    this.exports = exports;
    this.store = store;
  }

  /** The reviewer name the last export gave (the dialog starts from it). */
  lastReviewer(): string | null {
    return this.store.lastReviewer();
  }

  async exportWithDialog(input: DialogInput): Promise<{ cancelled: boolean; result: ExportResult | null }> {
    if (!this.platform.chooseSavePath) throw new AppError('DIALOG_UNAVAILABLE', 'There is no save dialog here: give the path to save to.');
    const chosen = await this.platform.chooseSavePath({ title: 'Save the report', defaultName: defaultReportName(input) });
    if (chosen === null) return { cancelled: true, result: null };
    const result = await this.exports.export({ ...input, path: chosen });
    this.written.add(result.path);
    return { cancelled: false, result };
  }

  /**
   * Browser mode's typed path (it has no save dialog); the CLI calls the service directly. In
   * Electron the page may not name a path: the save dialog in the main process does.
   */
  async exportTo(input: ExportInput): Promise<ExportResult> {
    if (this.platform.mode === 'electron') throw new AppError('FORBIDDEN', 'In the app the save dialog chooses where a report is written: use Export… on the answer.');
    const result = await this.exports.export(input);
    this.written.add(result.path);
    return result;
  }

  async reveal(filePath: string): Promise<{ revealed: boolean }> {
    const full = path.resolve(filePath);
    if (!this.written.has(full)) throw new AppError('FORBIDDEN', `${path.basename(full)} was not exported in this session, so it is not shown from here.`);
    await this.platform.revealInFolder(full);
    return { revealed: true };
  }
}
