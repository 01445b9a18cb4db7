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

export const AppEvent = z.discriminatedUnion('type', [IngestProgress, SourcesChanged]);
export type AppEvent = z.infer<typeof AppEvent>;
export type IngestProgress = z.infer<typeof IngestProgress>;
