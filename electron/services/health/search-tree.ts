/**
 * The folder searches of relinking (DESIGN.md §7): which folder may be searched, and a bounded walk
 * of it that reports every regular file with its size.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import { statMany } from './file-stats.ts';
import type { HealthSettings } from './health-types.ts';

/** The errno code of a file-system failure ('EIO' when it has none). */
export const errorCode = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? 'EIO';

/** A folder to search: it exists, is a folder, and is not the workspace (whose snapshots are copies). */
export async function searchRoot(rawDir: string, workspaceDir: string): Promise<{ dir: string; rootStat: fs.Stats }> {
  const dir = path.resolve(rawDir);
  let rootStat: fs.Stats;
  try {
    rootStat = await fs.promises.stat(dir);
  } catch (e) {
    const code = errorCode(e);
    throw code === 'ENOENT' || code === 'ENOTDIR'
      ? new AppError('FILE_MISSING', `The folder ${dir} does not exist. Check the path and search again.`, { path: dir })
      : new AppError('FILE_UNREADABLE', `The folder ${dir} cannot be read (${code}).`, { path: dir });
  }
  if (!rootStat.isDirectory()) {
    throw new AppError('FILE_UNREADABLE', `${dir} is a file, not a folder. To relink to this file, give it as the new path instead.`, { path: dir });
  }
  if (dir === workspaceDir || dir.startsWith(workspaceDir + path.sep)) {
    throw new AppError('INVALID_INPUT', `${dir} is inside the workspace, whose snapshots are copies, not the original files. Search the folder where your documents live.`, { path: dir });
  }
  return { dir, rootStat };
}

/**
 * Breadth-first walk: hidden folders and the workspace itself (its snapshots hold the same bytes)
 * are skipped; symlinked folders are followed once each, so a symlink loop ends; depth and file
 * count are bounded so a search of a whole disk stops and says so.
 */
export async function walkTree(
  root: string,
  rootStat: fs.Stats,
  workspaceDir: string,
  limits: Pick<HealthSettings, 'maxSearchDepth' | 'maxSearchFiles'>,
  onFile: (file: string, size: number) => void,
): Promise<{ examined: number; truncated: boolean }> {
  const visited = new Set<string>([`${rootStat.dev}:${rootStat.ino}`]);
  // Marking the workspace as seen keeps the walk out of it by whatever path it is reached.
  const ws = await fs.promises.stat(workspaceDir).catch(() => null);
  if (ws) visited.add(`${ws.dev}:${ws.ino}`);
  let queue: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
  let examined = 0;
  let truncated = false;
  while (queue.length > 0) {
    const nextQueue: { dir: string; depth: number }[] = [];
    for (const { dir, depth } of queue) {
      if (examined >= limits.maxSearchFiles) return { examined, truncated: true };
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        continue; // an unreadable folder is skipped, the rest of the search goes on
      }
      const files: string[] = [];
      const dirs: string[] = [];
      const links: string[] = [];
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!e.name.startsWith('.')) dirs.push(full);
        } else if (e.isFile()) files.push(full);
        else if (e.isSymbolicLink()) links.push(full);
      }
      const room = limits.maxSearchFiles - examined;
      if (files.length > room) truncated = true;
      const take = files.slice(0, Math.max(0, room));
      const fileStats = await statMany(take);
      take.forEach((f, i) => {
        const s = fileStats[i];
        if (s?.found && s.isFile) onFile(f, s.size);
      });
      examined += take.length;
      // A symlink may name a file or a folder; folders are entered only if not seen before.
      const linkStats = await statMany(links);
      for (const [i, link] of links.entries()) {
        const s = linkStats[i];
        if (!s?.found) continue;
        if (s.isFile) {
          if (examined >= limits.maxSearchFiles) truncated = true;
          else {
            examined++;
            onFile(link, s.size);
          }
        } else if (!path.basename(link).startsWith('.')) dirs.push(link);
      }
      for (const d of dirs) {
        if (depth + 1 > limits.maxSearchDepth) {
          truncated = true;
          continue;
        }
        let ds: fs.Stats;
        try {
          ds = await fs.promises.stat(d);
        } catch {
          continue;
        }
        const key = `${ds.dev}:${ds.ino}`;
        if (!ds.isDirectory() || visited.has(key)) continue;
        visited.add(key);
        nextQueue.push({ dir: d, depth: depth + 1 });
      }
    }
    queue = nextQueue;
  }
  return { examined, truncated };
}
