/**
 * A group's snapshots put just before the group's transaction (issue 16 item 5), by whichever
 * connection's thread commits it (ingest-writer.ts): in the writer thread, a folder of small files
 * so costs the main thread none of the snapshots' file operations. Each is written, flushed and
 * renamed as BlobStore.putAsync does (several at once on libuv's threads), so a blob is never at
 * its name unflushed and no row names a blob that is not on disk.
 */
import type { BlobStore } from './blobs.ts';

export interface GroupSnapshot {
  sha256: string;
  bytes: Uint8Array;
}

/**
 * Puts each snapshot durably at its name; returns, per snapshot, the error that kept it out (its
 * document must then not be stored: `skip` of commitInTransaction) or the `skip` already given.
 */
export async function putGroup(blobs: BlobStore, snapshots: (GroupSnapshot | undefined)[], skip: (unknown | undefined)[] = []): Promise<(unknown | undefined)[]> {
  const put = await Promise.allSettled(snapshots.map((s, i) => (s && skip[i] === undefined ? blobs.putAsync(s.sha256, s.bytes) : undefined)));
  return put.map((p, i) => skip[i] ?? (p.status === 'rejected' ? (p.reason ?? new Error('the snapshot was not written')) : undefined));
}
