/**
 * Snapshots in the shared database: content-addressed by SHA-256, stored as chunk rows of at most
 * CHUNK_SIZE bytes, written from a stream and read back as one, so no file is ever whole in
 * memory (a 500 MB PDF holds at most two chunks at a time). Every member can open every source,
 * whoever's disk the original is on.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { AppError } from '../../../../shared/contract/errors.ts';

export const CHUNK_SIZE = 1024 * 1024;

export type SnapshotWrite = 'stored' | 'present';

/**
 * Stores the bytes of `chunks` under `sha256`, in the caller's transaction. The blob row is
 * claimed first: a concurrent writer of the same bytes waits for this transaction, then finds the
 * blob present and reads none of its stream (closing it). Bytes that do not hash to `sha256` or do not come to
 * `byteSize` are refused (HASH_MISMATCH) and the transaction must roll back.
 */
export async function writeSnapshot(client: pg.ClientBase, sha256: string, byteSize: number, chunks: AsyncIterable<Uint8Array>, now: string): Promise<SnapshotWrite> {
  const claim = await client.query('INSERT INTO blobs (sha256, byte_size, chunk_size, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING', [sha256, byteSize, CHUNK_SIZE, now]);
  if (claim.rowCount === 0) {
    // Close the caller's stream unread (a file stream's iterator destroys it on return).
    await chunks[Symbol.asyncIterator]().return?.();
    return 'present';
  }
  const hash = createHash('sha256');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let ordinal = 0;
  let total = 0;
  const insert = async (data: Buffer): Promise<void> => {
    await client.query('INSERT INTO blob_chunks (sha256, ordinal, data) VALUES ($1, $2, $3)', [sha256, ordinal++, data]);
  };
  for await (const piece of chunks) {
    hash.update(piece);
    total += piece.byteLength;
    pending.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    pendingBytes += piece.byteLength;
    while (pendingBytes >= CHUNK_SIZE) {
      const all = Buffer.concat(pending, pendingBytes);
      await insert(all.subarray(0, CHUNK_SIZE));
      pending = pendingBytes > CHUNK_SIZE ? [all.subarray(CHUNK_SIZE)] : [];
      pendingBytes -= CHUNK_SIZE;
    }
  }
  if (pendingBytes > 0) await insert(Buffer.concat(pending, pendingBytes));
  const actual = hash.digest('hex');
  if (actual !== sha256 || total !== byteSize) {
    throw new AppError('HASH_MISMATCH', `The snapshot's bytes do not match the source: expected ${byteSize} bytes with SHA-256 ${sha256}, read ${total} bytes with SHA-256 ${actual}.`, {
      expected: sha256,
      actual,
      byteSize,
      read: total,
    });
  }
  return 'stored';
}

/** The bytes stored under `sha256`, chunk by chunk, in order (SOURCE_NOT_FOUND when there are none). */
export async function* readSnapshot(client: pg.ClientBase, sha256: string): AsyncGenerator<Buffer> {
  const blob = await client.query<{ byte_size: number }>('SELECT byte_size FROM blobs WHERE sha256 = $1', [sha256]);
  const size = blob.rows[0]?.byte_size;
  if (size === undefined) throw new AppError('SOURCE_NOT_FOUND', `No snapshot with SHA-256 ${sha256} is stored in the shared workspace.`, { sha256 });
  let read = 0;
  for (let ordinal = 0; read < size; ordinal++) {
    const r = await client.query<{ data: Buffer }>('SELECT data FROM blob_chunks WHERE sha256 = $1 AND ordinal = $2', [sha256, ordinal]);
    const data = r.rows[0]?.data;
    if (!data) throw new AppError('WORKSPACE_CORRUPT', `The snapshot ${sha256} lacks its chunk ${ordinal}.`, { sha256, ordinal });
    read += data.byteLength;
    yield data;
  }
}
