/**
 * A source's bytes on a shared workspace (issue 13), by id as the local desk serves them: the
 * member's own file when it is where this member last saw it and unchanged, else the snapshot the
 * shared database keeps, streamed once into the member's local folder (a cache, checked against
 * its SHA-256 before use) so the viewer's range requests read a file.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import { sha256File } from '../hashing/sha256.ts';
import type { SourceRow, SourcesArea } from '../store/evidence-store.ts';
import { CONTENT_TYPES, type ServableFile } from './source-files.ts';
import { storedSourceRow } from './page-text.ts';

/** Reads a snapshot's bytes by SHA-256, chunk by chunk (PgStore.snapshot). */
export type SnapshotReader = (sha256: string) => AsyncIterable<Buffer>;

export class SharedSourceFiles {
  private readonly sources: Pick<SourcesArea, 'get' | 'paths'>;
  private readonly snapshot: SnapshotReader;
  private readonly cacheDir: string;
  /** One download per snapshot, however many requests ask for it at once. */
  private readonly fetching = new Map<string, Promise<string>>();

  constructor(sources: Pick<SourcesArea, 'get' | 'paths'>, snapshot: SnapshotReader, workspaceDir: string) {
    this.sources = sources;
    this.snapshot = snapshot;
    this.cacheDir = path.join(workspaceDir, 'shared-snapshots');
  }

  async resolve(sourceId: number): Promise<ServableFile> {
    const src = await storedSourceRow(this.sources, sourceId);
    const contentType = CONTENT_TYPES[src.kind] ?? 'application/octet-stream';
    const original = await this.originalIfUnchanged(src);
    if (original) return { filePath: original, size: src.byte_size, origin: 'original', contentType, fileName: src.file_name };
    const cached = await this.cached(src);
    return { filePath: cached, size: src.byte_size, origin: 'snapshot', contentType, fileName: src.file_name };
  }

  private async originalIfUnchanged(src: SourceRow): Promise<string | null> {
    const current = (await this.sources.paths(src.id)).find((p) => p.current === 1);
    if (!current) return null;
    const st = await fs.promises.stat(current.path).catch(() => null);
    if (!st?.isFile() || st.size !== src.byte_size) return null;
    if (st.mtimeMs === current.mtime_ms) return current.path;
    return (await sha256File(current.path)) === src.sha256 ? current.path : null;
  }

  private cached(src: SourceRow): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(src.sha256)) throw new AppError('FORBIDDEN', `The snapshot name of ${src.file_name} is not a SHA-256.`);
    const file = path.join(this.cacheDir, src.sha256.slice(0, 2), src.sha256);
    let pending = this.fetching.get(src.sha256);
    if (!pending) {
      pending = this.download(src, file).finally(() => this.fetching.delete(src.sha256));
      this.fetching.set(src.sha256, pending);
    }
    return pending;
  }

  private async download(src: SourceRow, file: string): Promise<string> {
    const st = await fs.promises.stat(file).catch(() => null);
    if (st?.isFile() && st.size === src.byte_size) return file;
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${randomBytes(4).toString('hex')}.part`;
    const hash = createHash('sha256');
    const out = await fs.promises.open(partial, 'wx', 0o600);
    try {
      for await (const chunk of this.snapshot(src.sha256)) {
        hash.update(chunk);
        await out.write(chunk);
      }
    } catch (e) {
      await out.close();
      await fs.promises.rm(partial, { force: true });
      throw e;
    }
    await out.close();
    if (hash.digest('hex') !== src.sha256) {
      await fs.promises.rm(partial, { force: true });
      throw new AppError('HASH_MISMATCH', `The shared workspace's snapshot of ${src.file_name} does not hash to its SHA-256: it was not shown.`, { sourceId: src.id });
    }
    await fs.promises.rename(partial, file);
    return file;
  }
}
