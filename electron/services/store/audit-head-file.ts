/**
 * The audit head file beside workspace.sqlite: written atomically (temporary file, fsync, rename,
 * fsync of the folder) so a crash leaves the old head or the new one, never half of either.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HEAD_FILE, headFileText, type AuditHead } from '../../../shared/audit/head.ts';

export function sha256Text(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function headFilePath(workspaceDir: string): string {
  return path.join(workspaceDir, HEAD_FILE);
}

export function writeHeadFile(workspaceDir: string, head: AuditHead): void {
  const target = headFilePath(workspaceDir);
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, 'w', 0o644);
  try {
    fs.writeSync(fd, headFileText(head, sha256Text));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, target);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    throw e;
  }
  // The rename is durable once the folder's entry is on disk (not possible on Windows: skipped).
  try {
    const dirFd = fs.openSync(workspaceDir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {
    /* a folder cannot be opened for fsync on every platform */
  }
}

/** The head file's text, or null when there is none. */
export function readHeadFileText(workspaceDir: string): string | null {
  try {
    return fs.readFileSync(headFilePath(workspaceDir), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
