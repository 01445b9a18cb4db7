import fs from 'node:fs';
import path from 'node:path';

/** Content-addressed snapshots: blobs/sha256/ab/abcdef… inside the workspace (DESIGN.md §3). */
export class BlobStore {
  readonly root: string;
  readonly workspaceDir: string;
  /** Folders this store has made (or found) in this process: a folder of small files asks for the same 256 again and again. */
  private readonly folders = new Set<string>();
  constructor(workspaceDir: string) {
    this.workspaceDir = path.resolve(workspaceDir);
    this.root = path.join(workspaceDir, 'blobs', 'sha256');
  }

  relativePath(sha256: string): string {
    return path.join('blobs', 'sha256', sha256.slice(0, 2), sha256);
  }

  absolutePath(sha256: string): string {
    return path.join(this.root, sha256.slice(0, 2), sha256);
  }

  has(sha256: string): boolean {
    return fs.existsSync(this.absolutePath(sha256));
  }

  /**
   * Writes the bytes durably before the database row that names them is committed: temp file,
   * fsync, rename. A crash leaves at worst an unreferenced blob, never a row without its blob.
   */
  put(sha256: string, bytes: Uint8Array): string {
    const target = this.absolutePath(sha256);
    if (!fs.existsSync(target)) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
      const fd = fs.openSync(tmp, 'w');
      try {
        fs.writeSync(fd, bytes);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, target);
    }
    return this.relativePath(sha256);
  }

  /**
   * As put, without holding the event loop while the disk flushes: the write and fsync run on
   * libuv's threads, so several files' snapshots are flushed at once.
   */
  async putAsync(sha256: string, bytes: Uint8Array): Promise<string> {
    const target = this.absolutePath(sha256);
    if (!fs.existsSync(target)) {
      const folder = path.dirname(target);
      const tmp = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
      let handle: fs.promises.FileHandle;
      try {
        if (!this.folders.has(folder)) await fs.promises.mkdir(folder, { recursive: true });
        handle = await fs.promises.open(tmp, 'w');
      } catch (e) {
        // The folder went away since it was made (the blobs folder removed by hand): made again, once.
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        await fs.promises.mkdir(folder, { recursive: true });
        handle = await fs.promises.open(tmp, 'w');
      }
      this.folders.add(folder);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(tmp, target);
    }
    return this.relativePath(sha256);
  }

  /**
   * As putAsync in two steps, so that the snapshots of a group of documents are flushed together
   * just before the group's commit (GroupCommit's prepare) instead of one flush at a time: the
   * bytes go to a temporary file now; `settle` flushes it and renames it into place. A blob is
   * never at its final name unflushed, so "the blob exists" still means its bytes are on disk.
   */
  async stage(sha256: string, bytes: Uint8Array): Promise<StagedBlob> {
    const relative = this.relativePath(sha256);
    const target = this.absolutePath(sha256);
    if (fs.existsSync(target)) return { path: relative, settle: async () => undefined, discard: async () => undefined };
    const folder = path.dirname(target);
    if (!this.folders.has(folder)) {
      await fs.promises.mkdir(folder, { recursive: true });
      this.folders.add(folder);
    }
    const tmp = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await fs.promises.writeFile(tmp, bytes);
    } catch (e) {
      // The folder went away since it was made (the blobs folder removed by hand): made again, once.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await fs.promises.mkdir(folder, { recursive: true });
      await fs.promises.writeFile(tmp, bytes);
    }
    return {
      path: relative,
      settle: async () => {
        const handle = await fs.promises.open(tmp, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.promises.rename(tmp, target);
      },
      discard: () => fs.promises.rm(tmp, { force: true }),
    };
  }
}

/** A snapshot written but not yet flushed (BlobStore.stage). */
export interface StagedBlob {
  /** Where it will be, relative to the workspace. */
  path: string;
  /** Flushes it to disk and moves it to its name. */
  settle(): Promise<void>;
  /** Removes it (its document was not stored). */
  discard(): Promise<void>;
}
