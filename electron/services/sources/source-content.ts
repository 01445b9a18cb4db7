import fs from 'node:fs';
import type { SourceContent, StoredSegment } from '../../../shared/contract/content-schemas.ts';
import type { WebFetchRecord } from '../../../shared/contract/web-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { sha256Bytes } from '../hashing/sha256.ts';
import type { ViewPayload } from '../ingest/viewable.ts';
import type { WorkerPool } from '../ingest/worker-pool.ts';
import type { SegmentRow, SourceRow } from '../store/sources-store.ts';
import type { ServableFile } from './source-files.ts';

/** A source's row and segments: SQLite's SourcesStore (synchronous) or an engine's SourcesArea (issue 13). */
export interface ContentRows {
  get(id: number): SourceRow | undefined | Promise<SourceRow | undefined>;
  segments(id: number): SegmentRow[] | Promise<SegmentRow[]>;
}

/** Text-like files larger than this are not sent to the viewer whole (their text stays searchable). */
export const MAX_VIEW_TEXT_BYTES = 64 * 1024 * 1024;

/** DOCX, PowerPoint and Excel: ZIP packages whose pictures and media are never sent to the viewer. */
const ZIPPED_KINDS: ReadonlySet<string> = new Set(['docx', 'pptx', 'xlsx']);

/** Recently viewed documents, by SHA-256: going back and forth between citations converts once. */
const CACHE_ENTRIES = 4;

function storedSegment(row: SegmentRow): StoredSegment {
  return {
    paragraph: row.paragraph,
    line: row.line_start,
    lineEnd: row.line_end,
    headingPath: row.heading_path ? (JSON.parse(row.heading_path) as string[]) : [],
    text: row.text,
  };
}

/**
 * The viewable content of a DOCX, HTML, text or Markdown source (sources.content): its bytes from
 * the original when present and unchanged, else the snapshot (SourceFiles decides, by id only),
 * checked against the source's SHA-256, converted in a worker by the extractors' own code.
 */
export class SourceContentService {
  private readonly cache = new Map<string, ViewPayload>();
  private readonly store: ContentRows;
  private readonly files: { resolve(id: number): Promise<ServableFile> };
  private readonly pool: WorkerPool;
  private readonly timeoutMs: () => number;

  /** A web source's first fetch record: its HTML is shown as its article, as it was extracted. */
  private readonly webOrigin: (id: number) => WebFetchRecord | undefined;

  constructor(store: ContentRows, files: { resolve(id: number): Promise<ServableFile> }, pool: WorkerPool, timeoutMs: () => number, webOrigin: (id: number) => WebFetchRecord | undefined = () => undefined) {
    this.webOrigin = webOrigin;
    this.store = store;
    this.files = files;
    this.pool = pool;
    this.timeoutMs = timeoutMs;
  }

  async get(id: number): Promise<SourceContent> {
    const src = await this.store.get(id);
    if (!src) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${id} in this workspace.`);
    if (src.kind === 'pdf') {
      throw new AppError('UNSUPPORTED_TYPE', `${src.file_name} is a PDF: the viewer reads it page by page (sources.pageText and its source URL).`);
    }
    const file = await this.files.resolve(id);
    // Office packages are mostly media the viewer never reads: their size says little about their text.
    if (!ZIPPED_KINDS.has(src.kind) && file.size > MAX_VIEW_TEXT_BYTES) {
      throw new AppError(
        'FILE_TOO_LARGE',
        `${src.file_name} is too large to show in the viewer (${Math.round(file.size / 1024 / 1024)} MB; the limit is ${MAX_VIEW_TEXT_BYTES / 1024 / 1024} MB). Its text is stored and can be searched and cited.`,
        { sourceId: id },
      );
    }
    const fetched = this.webOrigin(id);
    const payload = await this.payload(src.sha256, src.kind, src.file_name, file.filePath, fetched !== undefined);
    const base = {
      archivedFrom: fetched ? { url: fetched.url, finalUrl: fetched.finalUrl, fetchedAt: fetched.fetchedAt } : null,
      sourceId: id,
      kind: src.kind,
      fileName: src.file_name,
      servedFrom: file.origin,
      path: src.current_path,
      segments: (await this.store.segments(id)).map(storedSegment),
    };
    return { ...base, ...payload };
  }

  private async payload(sha256: string, kind: SourceContent['kind'], fileName: string, filePath: string, reader: boolean): Promise<ViewPayload> {
    const cached = this.cache.get(sha256);
    if (cached) {
      this.cache.delete(sha256);
      this.cache.set(sha256, cached);
      return cached;
    }
    const bytes = new Uint8Array(await fs.promises.readFile(filePath));
    // The bytes shown must be the bytes ingested, or block and line numbers could point elsewhere.
    if (sha256Bytes(bytes) !== sha256) {
      throw new AppError('HASH_MISMATCH', `${fileName} changed while it was being opened. Open it again: the viewer will show the workspace's snapshot.`, {
        path: filePath,
      });
    }
    const payload = await this.pool.run<ViewPayload>({ op: 'view', kind, bytes, fileName, ...(reader ? { reader } : {}) }, { deadline: Date.now() + this.timeoutMs() });
    this.cache.set(sha256, payload);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value ?? sha256);
    return payload;
  }
}
