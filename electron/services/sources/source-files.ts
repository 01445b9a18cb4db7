import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import { sha256File } from '../hashing/sha256.ts';
import type { SourcesStore, SourceRow } from '../store/sources-store.ts';

export interface ServableFile {
  filePath: string;
  size: number;
  /** 'original' when the recorded file is present and unchanged, else the workspace's snapshot. */
  origin: 'original' | 'snapshot';
  contentType: string;
  fileName: string;
}

export const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  text: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/plain; charset=utf-8', // never served as live HTML: documents are untrusted
};

/**
 * Where a source's bytes come from, by source id only: the renderer never names a path. The
 * answer is always a path recorded in the workspace or a blob inside it.
 */
export class SourceFiles {
  private readonly store: SourcesStore;
  private readonly workspaceDir: string;
  constructor(store: SourcesStore, workspaceDir: string) {
    this.store = store;
    this.workspaceDir = workspaceDir;
  }

  async resolve(sourceId: number): Promise<ServableFile> {
    const src = this.store.get(sourceId);
    if (!src) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${sourceId} in this workspace.`);
    const contentType = CONTENT_TYPES[src.kind] ?? 'application/octet-stream';
    const original = await this.originalIfUnchanged(src);
    if (original) return { filePath: original, size: src.byte_size, origin: 'original', contentType, fileName: src.file_name };
    if (src.snapshot) {
      const blob = path.resolve(this.workspaceDir, src.snapshot);
      if (!blob.startsWith(path.resolve(this.workspaceDir) + path.sep)) {
        throw new AppError('FORBIDDEN', `The snapshot of ${src.file_name} points outside the workspace.`);
      }
      if (fs.existsSync(blob)) return { filePath: blob, size: src.byte_size, origin: 'snapshot', contentType, fileName: src.file_name };
    }
    throw new AppError('FILE_MISSING', `${src.file_name} is no longer at ${src.current_path ?? 'its recorded path'} and the workspace has no snapshot of it. Relink it to its new location.`, {
      sourceId,
      path: src.current_path,
    });
  }

  private async originalIfUnchanged(src: SourceRow): Promise<string | null> {
    const current = this.store.paths(src.id).find((p) => p.current === 1);
    if (!current) return null;
    let st: fs.Stats;
    try {
      st = await fs.promises.stat(current.path);
    } catch {
      return null;
    }
    if (!st.isFile() || st.size !== src.byte_size) return null;
    if (st.mtimeMs === current.mtime_ms) return current.path;
    // Touched but maybe the same bytes: only the hash can tell.
    return (await sha256File(current.path)) === src.sha256 ? current.path : null;
  }
}
