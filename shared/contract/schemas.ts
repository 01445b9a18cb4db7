import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';

export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256');
export const SourceId = z.number().int().positive();

export const ErrorDataSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const SourceKind = z.enum(['pdf', 'docx', 'text', 'markdown', 'html', 'pptx', 'xlsx']);
export type SourceKind = z.infer<typeof SourceKind>;

/** Where a segment sits in its source (DESIGN.md §4). start/end are offsets inside the segment. */
/**
 * A table cell's place (issue 11): table (1-based, in document order), row and column (1-based),
 * and the header labels of its row and column where the table has them.
 */
export const TableCellLocator = z.object({
  table: z.number().int().positive(),
  row: z.number().int().positive(),
  col: z.number().int().positive(),
  rowLabel: z.string().optional(),
  colLabel: z.string().optional(),
});
export type TableCellLocator = z.infer<typeof TableCellLocator>;

export const Locator = z.object({
  page: z.number().int().positive().optional(),
  pageLabel: z.string().optional(),
  paragraph: z.number().int().nonnegative().optional(),
  headingPath: z.array(z.string()).optional(),
  line: z.number().int().positive().optional(),
  lineEnd: z.number().int().positive().optional(),
  /** DOCX and HTML table cells; PowerPoint table cells (table counted on its slide); Excel cells (table = sheet number). */
  cell: TableCellLocator.optional(),
  /** PowerPoint (issue 14): the slide (1-based, in presentation order); notes = the slide's speaker notes. */
  slide: z.number().int().positive().optional(),
  notes: z.boolean().optional(),
  /** Excel (issue 14): the sheet's name and the cell's A1 address ("B3"). */
  sheet: z.string().optional(),
  address: z.string().optional(),
  /** Excel: the formula whose cached value the cell's text is. */
  formula: z.string().optional(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type Locator = z.infer<typeof Locator>;

export const Health = z.enum(['ok', 'modified', 'missing', 'unchecked']);
export type Health = z.infer<typeof Health>;

export const Warning = z.object({ code: z.enum(ERROR_CODES), message: z.string() });
export type Warning = z.infer<typeof Warning>;

export const SourceSummary = z.object({
  id: SourceId,
  sha256: Sha256,
  kind: SourceKind,
  fileName: z.string(),
  path: z.string().nullable(),
  byteSize: z.number().int().nonnegative(),
  segmentCount: z.number().int().nonnegative(),
  pageCount: z.number().int().nonnegative().nullable(),
  title: z.string().nullable(),
  addedAt: z.string(),
  health: Health,
  hasSnapshot: z.boolean(),
  predecessorId: SourceId.nullable(),
  /** Never sent to a model endpoint, not even a passage of it (DESIGN.md §8). */
  restricted: z.boolean(),
  warnings: z.array(Warning),
  /** Dropped on the page in browser mode: its only file is the workspace's inbox copy. */
  uploaded: z.boolean().optional(),
  /** A web page archived by Evidence Desk: the address asked for, where it came from, and when (issue 11). */
  archivedFrom: z.object({ url: z.string(), finalUrl: z.string(), fetchedAt: z.string() }).nullable().optional(),
});
export type SourceSummary = z.infer<typeof SourceSummary>;

export const SourceDetail = SourceSummary.extend({
  extraction: z.string(),
  knownPaths: z.array(z.object({ path: z.string(), firstSeenAt: z.string(), current: z.boolean() })),
  pages: z.array(
    z.object({
      page: z.number().int().positive(),
      label: z.string().nullable(),
      chars: z.number().int(),
      noTextLayer: z.boolean(),
      /** The page's text was recognised by OCR, with this mean word confidence (0–100). */
      ocrConfidence: z.number().nullable().optional(),
    }),
  ),
  /** Where the viewer's bytes come from now: the original file, or the workspace's snapshot. */
  servedFrom: z.enum(['original', 'snapshot', 'unavailable']),
});
export type SourceDetail = z.infer<typeof SourceDetail>;

export const SetRestrictedResult = z.object({
  /** The sources asked about, as they are now. */
  sources: z.array(SourceSummary),
  /** How many of them changed (the others already had the flag asked for). */
  changed: z.number().int().nonnegative(),
});
export type SetRestrictedResult = z.infer<typeof SetRestrictedResult>;

export const OcrPageInfo = z.object({
  method: z.string(),
  confidence: z.number().nullable(),
  boxes: z.array(z.tuple([z.number(), z.number(), z.number(), z.number()])),
});
export type OcrPageInfo = z.infer<typeof OcrPageInfo>;

export const OcrRerunResult = z.object({
  sourceId: SourceId,
  /** Pages without a text layer, and those of them that now hold OCR text. */
  scannedPages: z.array(z.number().int().positive()),
  recognisedPages: z.array(z.number().int().positive()),
  confidence: z.array(z.object({ page: z.number().int().positive(), confidence: z.number().nullable() })),
  method: z.string().nullable(),
});
export type OcrRerunResult = z.infer<typeof OcrRerunResult>;

export const PageText = z.object({
  sourceId: SourceId,
  page: z.number().int().positive(),
  pageLabel: z.string().nullable(),
  text: z.string(),
  /** Start offset in `text` of each pdf.js text item, in getTextContent order (text items only). */
  itemStarts: z.array(z.number().int().nonnegative()),
  noTextLayer: z.boolean(),
  /**
   * The page is a scan whose text OCR recognised: each item (a word) has a box, [x0, y0, x1, y1]
   * as fractions of the displayed page, so the viewer draws its own text layer over the image.
   */
  ocr: OcrPageInfo.nullable().optional(),
});
export type PageText = z.infer<typeof PageText>;

export const IngestFileResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    path: z.string(),
    sourceId: SourceId,
    sha256: Sha256,
    outcome: z.enum(['added', 'duplicate', 'new_version']),
    segmentCount: z.number().int().nonnegative(),
    warnings: z.array(Warning),
  }),
  z.object({ ok: z.literal(false), path: z.string(), error: ErrorDataSchema }),
]);
export type IngestFileResult = z.infer<typeof IngestFileResult>;

/** Why a path met while walking what the user chose was not read; each is shown as a sentence. */
export const SkipReason = z.enum([
  'hidden',
  'unsupported_type',
  'not_a_file',
  'workspace',
  /** A symbolic link whose real target lies outside the folder the user chose (see --follow-symlinks). */
  'link_outside',
  /** A symbolic link to nothing (its target is gone) or into a loop. */
  'link_broken',
  /** A FIFO, socket or device file (or a link to one): never opened, so the walk cannot hang on it. */
  'special_file',
]);
export type SkipReason = z.infer<typeof SkipReason>;

/** What a skipped entry is, or for a link what its target is. */
export const EntryType = z.enum(['file', 'folder', 'fifo', 'socket', 'device', 'other']);
export type EntryType = z.infer<typeof EntryType>;

export const SkippedEntry = z.object({
  path: z.string(),
  reason: SkipReason,
  entryType: EntryType.optional(),
  /** For a link: the real path it resolves to. */
  target: z.string().optional(),
});
export type SkippedEntry = z.infer<typeof SkippedEntry>;

export const IngestResult = z.object({
  batchId: z.string(),
  files: z.array(IngestFileResult),
  skipped: z.array(SkippedEntry),
  cancelled: z.boolean(),
});
export type IngestResult = z.infer<typeof IngestResult>;

export const WorkspaceInfo = z.object({
  path: z.string(),
  schemaVersion: z.number().int(),
  appVersion: z.string(),
  sourceCount: z.number().int().nonnegative(),
  mode: z.enum(['electron', 'browser', 'cli', 'test']),
  /** The model of the configured OpenAI-compatible endpoint (EVIDESK_MODEL), null when none is. */
  model: z.string().nullable().optional(),
  /** Set when the app works on a shared workspace (issue 13): where, and as which member. */
  shared: z
    .object({
      /** host:port of the PostgreSQL server. */
      server: z.string(),
      database: z.string(),
      login: z.string(),
      level: z.enum(['agent', 'reviewer', 'auditor', 'admin', 'owner']).nullable(),
    })
    .optional(),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

export const SearchHit = z.object({
  sourceId: SourceId,
  fileName: z.string(),
  segmentId: z.number().int().positive(),
  locator: Locator,
  rank: z.number(),
  snippet: z.string().nullable(),
  /** [start, end) ranges of matched words inside `snippet`. */
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  /** The source's kind, so a hit opens in the right viewer. */
  kind: SourceKind.optional(),
  /** The first matched words (a quoted phrase as a whole) as offsets in the segment's text: what the viewer highlights. */
  match: z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }).nullable().optional(),
});
export type SearchHit = z.infer<typeof SearchHit>;

// Source health and relinking (DESIGN.md §7).

/** A health a check has established (sources.list says 'unchecked' until one has). */
export const CheckedHealth = z.enum(['ok', 'modified', 'missing']);
export type CheckedHealth = z.infer<typeof CheckedHealth>;

export const SourceHealth = z.object({
  id: SourceId,
  fileName: z.string(),
  /** The path holding the bytes when ok, else the path the source was last recorded at. */
  path: z.string().nullable(),
  health: CheckedHealth,
  /** Citations pointing at this source: what a missing or modified file puts at risk. */
  citations: z.number().int().nonnegative(),
  detail: z.string(),
});
export type SourceHealth = z.infer<typeof SourceHealth>;

export const HealthCounts = z.object({ ok: z.number().int().nonnegative(), modified: z.number().int().nonnegative(), missing: z.number().int().nonnegative() });

export const HealthReport = z.object({
  checkedAt: z.string(),
  durationMs: z.number().nonnegative(),
  sources: z.array(SourceHealth),
  counts: HealthCounts,
});
export type HealthReport = z.infer<typeof HealthReport>;

/** Another missing source found, with the same bytes, where the relinked folder's contents now are. */
export const RelinkSuggestion = z.object({ id: SourceId, fileName: z.string(), fromPath: z.string().nullable(), path: z.string() });
export type RelinkSuggestion = z.infer<typeof RelinkSuggestion>;

export const RelinkResult = z.object({
  source: SourceSummary,
  path: z.string(),
  previousPath: z.string().nullable(),
  suggestions: z.array(RelinkSuggestion),
});
export type RelinkResult = z.infer<typeof RelinkResult>;

export const RelinkManyResult = z.object({
  results: z.array(
    z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), id: SourceId, path: z.string(), previousPath: z.string().nullable() }),
      z.object({ ok: z.literal(false), id: SourceId, path: z.string(), error: ErrorDataSchema }),
    ]),
  ),
});
export type RelinkManyResult = z.infer<typeof RelinkManyResult>;

export const FolderSearchResult = z.object({
  dir: z.string(),
  /** Files whose size was looked at. */
  examined: z.number().int().nonnegative(),
  /** Files hashed because their size matched. */
  hashed: z.number().int().nonnegative(),
  /** The walk hit its depth or file bound before seeing everything. */
  truncated: z.boolean(),
  results: z.array(z.object({ id: SourceId, fileName: z.string(), matches: z.array(z.string()) })),
});
export type FolderSearchResult = z.infer<typeof FolderSearchResult>;

/** Workspace settings (stored in the workspace, so the app and the CLI share them). */
export const WorkspaceSettings = z.object({
  /** Keep a content-addressed snapshot of every source (DESIGN.md §3). */
  snapshots: z.boolean(),
  maxFileMb: z.number().int().min(1).max(8192),
  extractionTimeoutSeconds: z.number().int().min(1).max(24 * 3600),
  /** A PDF with more pages than this is refused (PDF_TOO_MANY_PAGES) before any page is read. */
  maxPdfPages: z.number().int().min(1).max(10_000_000),
  /** Ask the model endpoint's judge whether each placed quote supports its claim (issue 10); off by default. */
  modelJudge: z.boolean(),
});
export type WorkspaceSettings = z.infer<typeof WorkspaceSettings>;
export const DEFAULT_WORKSPACE_SETTINGS: WorkspaceSettings = { snapshots: true, maxFileMb: 512, extractionTimeoutSeconds: 600, maxPdfPages: 20_000, modelJudge: false };
