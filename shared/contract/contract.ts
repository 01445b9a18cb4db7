import { z } from 'zod';
import { IngestResult, PageText, SearchHit, SourceDetail, SourceId, SourceSummary, WorkspaceInfo } from './schemas.ts';

/**
 * Every operation the renderer (or any client) can ask of the services: a name, a zod schema for
 * its input and one for its output. Both transports (Electron IPC, loopback HTTP) dispatch through
 * this table, so an operation missing here does not exist anywhere.
 */
export const contract = {
  'workspace.info': {
    input: z.object({}),
    output: WorkspaceInfo,
  },
  'sources.ingest': {
    input: z.object({
      paths: z.array(z.string().min(1)).min(1),
      password: z.string().optional(),
    }),
    output: IngestResult,
  },
  'sources.cancelIngest': {
    input: z.object({ batchId: z.string().min(1) }),
    output: z.object({ cancelled: z.boolean() }),
  },
  'sources.list': {
    input: z.object({}),
    output: z.array(SourceSummary),
  },
  'sources.get': {
    input: z.object({ id: SourceId }),
    output: SourceDetail,
  },
  'sources.pageText': {
    input: z.object({ id: SourceId, page: z.number().int().positive() }),
    output: PageText,
  },
  'search.query': {
    input: z.object({
      query: z.string().min(1).max(2000),
      limit: z.number().int().min(1).max(500).default(20),
      sourceIds: z.array(SourceId).optional(),
      snippets: z.boolean().default(true),
    }),
    output: z.object({ hits: z.array(SearchHit) }),
  },
} as const;

export type Contract = typeof contract;
export type HandlerName = keyof Contract;
export type HandlerInput<N extends HandlerName> = z.input<Contract[N]['input']>;
export type HandlerOutput<N extends HandlerName> = z.output<Contract[N]['output']>;
export const HANDLER_NAMES = Object.keys(contract) as HandlerName[];

export function isHandlerName(name: unknown): name is HandlerName {
  return typeof name === 'string' && Object.hasOwn(contract, name);
}
