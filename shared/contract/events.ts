import { z } from 'zod';

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
});

export const SourcesChanged = z.object({ type: z.literal('sources.changed') });

/** A health check or relink finished: the counts of the last known health of every checked source. */
export const SourcesHealth = z.object({
  type: z.literal('sources.health'),
  counts: z.object({ ok: z.number().int().nonnegative(), modified: z.number().int().nonnegative(), missing: z.number().int().nonnegative() }),
});

export const AppEvent = z.discriminatedUnion('type', [IngestProgress, SourcesChanged, SourcesHealth]);
export type AppEvent = z.infer<typeof AppEvent>;
export type IngestProgress = z.infer<typeof IngestProgress>;
