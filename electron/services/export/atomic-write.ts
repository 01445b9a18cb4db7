import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';

/**
 * Writes a file whole or not at all: a temporary file in the target's own folder (same file
 * system, so the rename is atomic), flushed, then renamed over the target. On any failure the
 * temporary file is removed and EXPORT_FAILED names the path; an existing target is left as it was.
 */
export function writeFileAtomic(target: string, content: string | Uint8Array): number {
  const full = path.resolve(target);
  const dir = path.dirname(full);
  const temp = path.join(dir, `.${path.basename(full)}.${randomBytes(6).toString('hex')}.part`);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  let fd: number | undefined;
  try {
    if (fs.existsSync(full) && fs.statSync(full).isDirectory()) throw Object.assign(new Error('it is a folder'), { code: 'EISDIR' });
    fd = fs.openSync(temp, 'wx', 0o644);
    fs.writeFileSync(fd, bytes);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, full);
    return bytes.byteLength;
  } catch (e) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed or never opened: nothing to release.
      }
    }
    fs.rmSync(temp, { force: true });
    const err = e as NodeJS.ErrnoException;
    throw new AppError('EXPORT_FAILED', `The report could not be written to ${full}: ${reasonOf(err)}.`, { path: full, ...(err.code ? { reason: err.code } : {}) });
  }
}

function reasonOf(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'its folder does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'part of the path is not a folder';
    default:
      return e.message;
  }
}
