import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import type { FoundFile } from './folder-walk.ts';
import { fsError } from './fs-errors.ts';

// O_NONBLOCK: should the path have turned into a FIFO since the walk, opening it returns at once
// instead of waiting for a writer. O_NOFOLLOW: a file the walk saw as a regular file must not have
// become a link. Both are absent on Windows, where neither case exists in this form.
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export interface OpenedFile {
  handle: fs.promises.FileHandle;
  stat: fs.Stats;
}

/**
 * Opens a file the walk found and checks, on the open handle (fstat), that it is still the same
 * regular file: a swap between the walk's lstat and this open (for a FIFO, a device, a link or
 * another file) is refused rather than read.
 */
export async function openRegularFile(found: FoundFile): Promise<OpenedFile> {
  const name = path.basename(found.path);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(found.path, fs.constants.O_RDONLY | O_NONBLOCK | (found.noFollow ? O_NOFOLLOW : 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENXIO') {
      throw new AppError('FILE_CHANGED_DURING_INGEST', `${name} was replaced by a link or a special file while it was being ingested, so it was not read.`, { path: found.path });
    }
    throw fsError(e, found.path);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new AppError('FILE_UNREADABLE', `${found.path} is not a regular file (a folder, pipe, socket or device), so it was not read.`);
    }
    if (stat.dev !== found.dev || stat.ino !== found.ino) {
      throw new AppError('FILE_CHANGED_DURING_INGEST', `${name} was replaced by another file while it was being ingested, so it was not read. Ingest it again.`, { path: found.path });
    }
    return { handle, stat };
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Reads exactly the size fstat gave (already checked against the size cap), so a file that grows
 * while being read cannot push past the cap; a file whose size changed under the read is refused.
 */
export async function readExactly(opened: OpenedFile, file: string): Promise<Uint8Array> {
  const size = opened.stat.size;
  const bytes = Buffer.alloc(size);
  let at = 0;
  try {
    while (at < size) {
      const { bytesRead } = await opened.handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    const extra = await opened.handle.read(Buffer.alloc(1), 0, 1, size);
    if (at !== size || extra.bytesRead !== 0) {
      throw new AppError('FILE_CHANGED_DURING_INGEST', `${path.basename(file)} changed size while it was being read, so it was not ingested. Ingest it again when it is no longer being written.`, { path: file });
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw fsError(e, file);
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, size);
}
