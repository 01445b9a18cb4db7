import { z } from 'zod';
import { SkippedEntry } from './schemas.ts';

/** Progress events pushed from the services to the renderer (IPC events or server-sent events). */
export const IngestProgress = z.object({
  type: z.literal('ingest.progress'),
  batchId: z.string(),
  fileIndex: z.number().int().nonnegative(),
  fileCount: z.number().int().nonnegative(),
  path: z.string(),
  phase: z.enum(['hashing', 'extracting', 'storing', 'done', 'failed']),
  page: z.number().int().nonnegative().optional(),
  pageCount: z.number().int().nonnegative().optional(),
  /** `page` is a scan being read by OCR now (seconds a page). */
  ocr: z.boolean().optional(),
  /** The folder walk is still going: fileCount is the count of files found so far. */
  walking: z.boolean().optional(),
});

/**
 * The folder walk of a batch: how far it has got, and the entries skipped since the last event (each
 * reaches the user as a sentence). Ingestion starts before the walk ends, so while `done` is false
 * the progress events' fileCount is the count found so far.
 */
export const IngestWalk = z.object({
  type: z.literal('ingest.walk'),
  batchId: z.string(),
  /** Entries looked at so far (files, folders, links). */
  entries: z.number().int().nonnegative(),
  /** Files found to ingest so far. */
  files: z.number().int().nonnegative(),
  skipped: z.array(SkippedEntry),
  done: z.boolean(),
});

export const SourcesChanged = z.object({ type: z.literal('sources.changed') });

/** A health check or relink finished: the counts of the last known health of every checked source. */
export const SourcesHealth = z.object({
  type: z.literal('sources.health'),
  counts: z.object({ ok: z.number().int().nonnegative(), modified: z.number().int().nonnegative(), missing: z.number().int().nonnegative() }),
});

/** A citation link to open in the window (a second launch, macOS open-url, `evidesk open`); validated before it is sent. */
export const LinkOpen = z.object({ type: z.literal('link.open'), link: z.string().max(4096) });


/** An agent cited into a session (by MCP or the HTTP API, in this process or another): the session's answer has new cards. */
export const CitationsAdded = z.object({
  type: z.literal('citations.added'),
  answerId: z.number().int().positive(),
  sessionId: z.string(),
  citationIds: z.array(z.number().int().positive()),
});

/**
 * How far a report export (issue 9) has got, for exports given a jobId. `done`/`total` count the
 * citations whose excerpts are made (phase `excerpts`); the other phases have no count (0 of 0).
 * The last event of a job is `done`, `cancelled` or `failed`.
 */
export const ExportProgress = z.object({
  type: z.literal('export.progress'),
  jobId: z.string(),
  phase: z.enum(['verifying', 'checking', 'excerpts', 'rendering', 'printing', 'writing', 'done', 'cancelled', 'failed']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});

/**
 * A verification in batches (issue 16): `verifying` after each batch's results are stored (the
 * citations it covered, so their cards can be shown while the rest are checked), in order, then one
 * `done`, `cancelled` or `failed`. `done` counts the citations verified so far, of `total`.
 */
export const VerifyProgress = z.object({
  type: z.literal('answers.verifyProgress'),
  /** The caller's jobId (answers.import / answers.verify), null when none was given. */
  jobId: z.string().nullable(),
  answerId: z.number().int().positive(),
  runId: z.number().int().positive(),
  phase: z.enum(['verifying', 'done', 'cancelled', 'failed']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  citationIds: z.array(z.number().int().positive()),
});

/**
 * A teammate wrote to the shared workspace (issue 13, LISTEN/NOTIFY): a row of `table` this member
 * may read. `answerId` is the answer the row belongs to (a citation's, a decision's), else null.
 */
export const SharedChanged = z.object({
  type: z.literal('shared.changed'),
  table: z.enum(['sources', 'answers', 'agent_sessions', 'citations', 'review_decisions', 'library_changes']),
  id: z.number().int().positive(),
  answerId: z.number().int().positive().nullable(),
  /** 'restricted': the source was restricted or its restriction lifted (no new row). */
  update: z.enum(['restricted']).optional(),
});

/** The live connection to the shared workspace: lost, trying again, back (with the rows missed meanwhile), or given up. */
export const SharedConnection = z.object({
  type: z.literal('shared.connection'),
  state: z.enum(['connected', 'lost', 'reconnecting', 'resumed', 'ended']),
  attempt: z.number().int().nonnegative().optional(),
  delayMs: z.number().int().nonnegative().optional(),
  missed: z.number().int().nonnegative().optional(),
  reason: z.string().max(2000).optional(),
});

export const AppEvent = z.discriminatedUnion('type', [IngestProgress, IngestWalk, SourcesChanged, SourcesHealth, LinkOpen, CitationsAdded, ExportProgress, VerifyProgress, SharedChanged, SharedConnection]);
export type AppEvent = z.infer<typeof AppEvent>;
export type IngestProgress = z.infer<typeof IngestProgress>;
export type IngestWalk = z.infer<typeof IngestWalk>;
export type ExportProgress = z.infer<typeof ExportProgress>;
export type VerifyProgress = z.infer<typeof VerifyProgress>;
export type SharedChanged = z.infer<typeof SharedChanged>;
export type SharedConnection = z.infer<typeof SharedConnection>;
