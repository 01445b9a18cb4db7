/** The export operation's contract (issue 9): a report of one answer written to a file. */
import { z } from 'zod';
import { AnswerId } from './answer-schemas.ts';

/** `pdf` is the HTML report printed by Chromium. */
export const EXPORT_FORMATS = ['md', 'html', 'pdf', 'json', 'csv', 'bib'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;
export const BibStyle = z.enum(['apa', 'harvard', 'ieee', 'bibtex']);

export const ExportInput = z.object({
  id: AnswerId,
  format: ExportFormat,
  /** Where to write; an existing file is replaced only once the new one is complete. */
  path: z.string().min(1).max(4096),
  /** The bibliography's style (format `bib`); BibTeX unless given. */
  style: BibStyle.optional(),
  /** Only accepted citations (the others are still counted in the summary). */
  onlyAccepted: z.boolean().optional(),
  excerpts: z.boolean().optional(),
  notes: z.boolean().optional(),
  /** The reviewer's name; remembered for the next export when given (null or empty clears it), the remembered one when absent. */
  reviewer: z.string().max(200).nullable().optional(),
  /**
   * The caller's name for this export (e.g. a UUID): its progress events carry it and
   * `answers.cancelExport` stops it by it.
   */
  jobId: z.string().min(1).max(100).optional(),
});
export type ExportInput = z.input<typeof ExportInput>;

export const ExportResult = z.object({
  path: z.string(),
  format: ExportFormat,
  bytes: z.number().int().nonnegative(),
  contentHash: z.string(),
  runId: z.number().int().positive(),
  /** Whether the export ran a verification first (the answer had no run). */
  verifiedFirst: z.boolean(),
  summary: z.object({
    total: z.number().int().nonnegative(),
    included: z.number().int().nonnegative(),
    unresolved: z.number().int().nonnegative(),
    /** Sources whose file was missing at export (the report uses their snapshot). */
    missingSources: z.number().int().nonnegative(),
  }),
});
export type ExportResult = z.infer<typeof ExportResult>;

/** The app's export: the path comes from the platform's save dialog in the main process, never from the page. */
export const ExportWithDialogInput = ExportInput.omit({ path: true });
export const ExportWithDialogResult = z.object({
  /** The analyst closed the save dialog: nothing was written. */
  cancelled: z.boolean(),
  result: ExportResult.nullable(),
});

export const ExportPreviewInput = ExportInput.omit({ path: true, jobId: true, format: true, style: true });
export type ExportPreviewInput = z.input<typeof ExportPreviewInput>;

export const exportContract = {
  'answers.export': { input: ExportInput, output: ExportResult },
  'answers.exportWithDialog': { input: ExportWithDialogInput, output: ExportWithDialogResult },
  /** What the export dialog starts from: the reviewer name the last export gave. */
  'answers.exportDefaults': { input: z.object({}), output: z.object({ reviewer: z.string().nullable() }) },
  /** Stops a running export by its jobId; nothing is written. `cancelled` is false when no such export is running. */
  'answers.cancelExport': { input: z.object({ jobId: z.string().min(1).max(100) }), output: z.object({ cancelled: z.boolean() }) },
  /** The first page of the report as it would be written (HTML, scripts none; excerpts of the first citations only), for the dialog's preview. */
  'answers.exportPreview': { input: ExportPreviewInput, output: z.object({ html: z.string() }) },
  /** Shows a report written in this session in its folder (only those: the page names no other paths). */
  'answers.revealExport': { input: z.object({ path: z.string().min(1).max(4096) }), output: z.object({ revealed: z.boolean() }) },
} as const;
