/**
 * The audit head file beside workspace.sqlite: written atomically (temporary file, fsync, rename,
 * fsync of the folder) so a crash leaves the old head or the new one, never half of either.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HEAD_FILE, headFileText, headMessage, type AuditHead, type HeadFileState } from '../../../shared/audit/head.ts';
import { publicKeyText, readWorkspaceKey, signText, verifyText, workspaceKey } from './audit-key.ts';

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
    const key = workspaceKey(workspaceDir);
    fs.writeSync(fd, headFileText(head, sha256Text, { publicKey: publicKeyText(key), signature: signText(key, headMessage(head)) }));
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

/**
 * As writeHeadFile, with the disk's work (write, flushes, rename) on libuv's threads: a group
 * commit's caller goes on reading and extracting the next files while the head is flushed.
 */
export async function writeHeadFileAsync(workspaceDir: string, head: AuditHead): Promise<void> {
  const target = headFilePath(workspaceDir);
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const key = workspaceKey(workspaceDir);
  const text = headFileText(head, sha256Text, { publicKey: publicKeyText(key), signature: signText(key, headMessage(head)) });
  const handle = await fs.promises.open(temp, 'w', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.promises.rename(temp, target);
  } catch (e) {
    await fs.promises.rm(temp, { force: true });
    throw e;
  }
  try {
    const dir = await fs.promises.open(workspaceDir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
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

/**
 * A head file that parsed is held to the workspace key, when the workspace has one: it must be
 * signed by that key (not merely by the key it names), or someone without the key rewrote it.
 */
export function checkHeadSignature(workspaceDir: string, file: HeadFileState): HeadFileState {
  if (file.state !== 'ok') return file;
  const key = readWorkspaceKey(workspaceDir);
  if (!key) return file;
  const expected = publicKeyText(key);
  if (!file.signed) return { state: 'changed', reason: 'it is not signed with the workspace key' };
  if (file.signed.publicKey !== expected || !verifyText(expected, headMessage(file.head), file.signed.signature)) {
    return { state: 'changed', reason: 'its signature does not verify with the workspace key' };
  }
  return file;
}
