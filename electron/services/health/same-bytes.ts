import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import { sha256File } from '../hashing/sha256.ts';
import type { CheckSourceRow, CurrentPathRow } from '../store/evidence-store.ts';
import { statMany } from './file-stats.ts';
import { errorCode } from './search-tree.ts';

/**
 * The file at `rawPath`, resolved and stat'ed, when it holds exactly the source's bytes (SHA-256);
 * otherwise a coded error that says why a relink to it is refused.
 */
export async function requireSameBytes(src: CheckSourceRow, sourceId: number, rawPath: string): Promise<{ newPath: string; st: fs.Stats }> {
  const newPath = path.resolve(rawPath);
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(newPath);
  } catch (e) {
    const code = errorCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new AppError('FILE_MISSING', `${newPath} does not exist. Check the path, or search a folder for ${src.file_name}.`, { sourceId, path: newPath });
    }
    throw new AppError('FILE_UNREADABLE', `${newPath} cannot be read (${code}). Give your user read access to it and try again.`, { sourceId, path: newPath });
  }
  if (!st.isFile()) {
    throw new AppError('FILE_UNREADABLE', `${newPath} is a folder, not a file. Give the file itself, or search the folder for ${src.file_name}.`, { sourceId, path: newPath });
  }
  // Different sizes are different bytes: no need to read the file to refuse it.
  let sha: string | null = null;
  if (st.size === src.byte_size) {
    try {
      sha = await sha256File(newPath);
    } catch (e) {
      throw new AppError('FILE_UNREADABLE', `${newPath} cannot be read (${errorCode(e)}). Give your user read access to it and try again.`, { sourceId, path: newPath });
    }
  }
  if (sha !== src.sha256) {
    throw new AppError(
      'HASH_MISMATCH',
      `${path.basename(newPath)} at ${newPath} is not the same file as source ${src.file_name}: its bytes differ ` +
        `(${sha !== null ? 'same size, different SHA-256' : `${st.size} bytes, the source has ${src.byte_size}`}). ` +
        'Relinking needs the identical file. If this is a new version, ingest it as a new source instead.',
      { sourceId, path: newPath, expectedSha256: src.sha256, actualSha256: sha, expectedSize: src.byte_size, actualSize: st.size },
    );
  }
  return { newPath, st };
}

/** Whether a recorded path still holds the source's bytes: stat first, hash only a touched file. */
export async function holdsBytes(row: CurrentPathRow, src: CheckSourceRow): Promise<boolean> {
  const [st] = await statMany([row.path]);
  if (!st?.found || !st.isFile || st.size !== src.byte_size) return false;
  if (st.mtimeMs === row.mtime_ms && st.size === row.size) return true;
  return (await sha256File(row.path).catch(() => null)) === src.sha256;
}
