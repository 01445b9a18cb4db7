/**
 * A group's snapshots put just before the group's transaction (issue 16 item 5), by whichever
 * connection's thread commits it (ingest-writer.ts): in the writer thread, a folder of small files
 * so costs the main thread none of the snapshots' file operations. Each is written, flushed and
 * renamed as BlobStore.putAsync does (several at once on libuv's threads), so a blob is never at
 * its name unflushed and no row names a blob that is not on disk.
 */
import { AppError } from '../../../shared/contract/errors.ts';
import type { BlobStore } from './blobs.ts';

export interface GroupSnapshot {
  sha256: string;
  bytes: Uint8Array;
  /** Named in the error when it cannot be written. */
  fileName: string;
}

function snapshotError(s: GroupSnapshot, e: unknown): AppError {
  const reason = (e as NodeJS.ErrnoException | undefined)?.code ?? (e instanceof Error ? e.message : String(e));
  return new AppError('SNAPSHOT_WRITE_FAILED', `${s.fileName}: its snapshot could not be written into the workspace (${reason}), so it was not stored. Check the workspace's disk space and permissions, then ingest it again.`, {
    fileName: s.fileName,
    reason,
  });
}

/**
 * Puts each snapshot durably at its name; returns, per snapshot, the error that kept it out (its
 * document must then not be stored: `skip` of commitInTransaction) or the `skip` already given.
 */
export async function putGroup(blobs: BlobStore, snapshots: (GroupSnapshot | undefined)[], skip: (unknown | undefined)[] = []): Promise<(unknown | undefined)[]> {
  const put = await Promise.allSettled(snapshots.map((s, i) => (s && skip[i] === undefined ? blobs.putAsync(s.sha256, s.bytes) : undefined)));
  return put.map((p, i) => {
    const s = snapshots[i];
    return skip[i] ?? (p.status === 'rejected' && s ? snapshotError(s, p.reason) : undefined);
  });
}
