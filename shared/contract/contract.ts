import { z } from 'zod';
import { IngestResult, OcrRerunResult, WorkspaceSettings, PageText, SearchHit, SetRestrictedResult, SourceDetail, SourceId, SourceKind, SourceSummary, WorkspaceInfo } from './schemas.ts';
import { FolderSearchResult, HealthReport, RelinkManyResult, RelinkResult } from './schemas.ts';
import { answersContract } from './answer-schemas.ts';
import { cardsContract } from './card-schemas.ts';
import { exportContract } from './export-schemas.ts';
import { SourceContent } from './content-schemas.ts';
import { linksContract } from './link-schemas.ts';
import { citationsContract } from './citation-schemas.ts';
import { webContract } from './web-schemas.ts';
import { listContract } from './list-schemas.ts';
import { readerContract } from './reader-schemas.ts';
import { libraryContract } from './library-schemas.ts';

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
  'workspace.settings': {
    input: z.object({}),
    output: WorkspaceSettings,
  },
  'workspace.updateSettings': {
    input: WorkspaceSettings.partial(),
    output: WorkspaceSettings,
  },
  'sources.ingest': {
    input: z.object({
      paths: z.array(z.string().min(1)).min(1),
      password: z.string().optional(),
      /** Follow symbolic links out of the chosen folders (never to FIFOs, sockets or devices). */
      followSymlinks: z.boolean().optional(),
      /** OCR of PDF pages without a text layer; on unless false. */
      ocr: z.boolean().optional(),
      /** OCR languages, tesseract codes (eng, deu, fra, chi_sim are installed); English when not given. */
      ocrLanguages: z.array(z.string().regex(/^[a-z]{3}(?:_[a-z]{3,4})?$/)).max(8).optional(),
    }),
    output: IngestResult,
  },
  /** OCR run again over a PDF's pages without a text layer (other languages, or after --no-ocr). */
  'sources.ocr': {
    input: z.object({
      id: SourceId,
      languages: z.array(z.string().regex(/^[a-z]{3}(?:_[a-z]{3,4})?$/)).max(8).optional(),
      password: z.string().optional(),
    }),
    output: OcrRerunResult,
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
  /** Marks sources restricted (or lifts it), all or none: an unknown id changes nothing. */
  'sources.setRestricted': {
    input: z.object({ ids: z.array(SourceId).min(1).max(100_000), restricted: z.boolean() }),
    output: SetRestrictedResult,
  },
  'sources.pageText': {
    input: z.object({ id: SourceId, page: z.number().int().positive() }),
    output: PageText,
  },
  /** A DOCX, HTML, text or Markdown source as the viewer shows it, with its stored segments. */
  'sources.content': {
    input: z.object({ id: SourceId }),
    output: SourceContent,
  },
  'search.query': {
    input: z.object({
      query: z.string().min(1).max(2000),
      limit: z.number().int().min(1).max(500).default(20),
      sourceIds: z.array(SourceId).optional(),
      /** Only sources of these kinds (the type filter). */
      kinds: z.array(SourceKind).optional(),
      snippets: z.boolean().default(true),
    }),
    output: z.object({ hits: z.array(SearchHit) }),
  },
  // Source health and relinking (DESIGN.md §7).
  'sources.check': {
    input: z.object({ ids: z.array(SourceId).max(100_000).optional() }),
    output: HealthReport,
  },
  'sources.relink': {
    // searchedDir: the folder searched to find this file; the other missing files are looked for there too.
    input: z.object({ id: SourceId, path: z.string().min(1).max(4096), searchedDir: z.string().min(1).max(4096).optional() }),
    output: RelinkResult,
  },
  'sources.relinkMany': {
    input: z.object({ items: z.array(z.object({ id: SourceId, path: z.string().min(1).max(4096) })).min(1).max(100_000) }),
    output: RelinkManyResult,
  },
  'sources.searchFolder': {
    input: z.object({ ids: z.array(SourceId).min(1).max(100_000), dir: z.string().min(1).max(4096) }),
    output: FolderSearchResult,
  },
  // Answers: import, verification runs, the answerers, review (DESIGN.md §5, §6).
  ...answersContract,
  ...cardsContract,
  ...exportContract,
  ...linksContract,
  // The citation tools agents call (issue 11): the MCP server and the host serve the same entries.
  ...citationsContract,
  ...webContract,
  // Lists as pages: filter, sort, keyset cursor (issue 16).
  ...listContract,
  ...readerContract,
  // Renaming and removing answers and sources (issue 12).
  ...libraryContract,
} as const;

export type Contract = typeof contract;
export type HandlerName = keyof Contract;
export type HandlerInput<N extends HandlerName> = z.input<Contract[N]['input']>;
export type HandlerOutput<N extends HandlerName> = z.output<Contract[N]['output']>;
export const HANDLER_NAMES = Object.keys(contract) as HandlerName[];

export function isHandlerName(name: unknown): name is HandlerName {
  return typeof name === 'string' && Object.hasOwn(contract, name);
}
