import { sha256File } from '../hashing/sha256.ts';
import type { CheckSourceRow } from '../store/evidence-store.ts';
import { mapPool } from './file-stats.ts';
import type { FolderSearchResult, HealthSettings } from './health-types.ts';
import { searchRoot, walkTree } from './search-tree.ts';

/** One walk of `rawDir` for several sources: candidates by size first, then only those are hashed. */
export async function searchFolderFor(
  sources: readonly CheckSourceRow[],
  rawDir: string,
  workspaceDir: string,
  settings: HealthSettings,
): Promise<FolderSearchResult> {
  const { dir, rootStat } = await searchRoot(rawDir, workspaceDir);

  const wanted = new Set(sources.map((s) => s.byte_size));
  const bySize = new Map<number, string[]>();
  const walk = await walkTree(dir, rootStat, workspaceDir, settings, (file, size) => {
    if (!wanted.has(size)) return;
    const list = bySize.get(size) ?? [];
    list.push(file);
    bySize.set(size, list);
  });

  const hashes = new Map<string, string | null>();
  const distinct = [...new Set([...bySize.values()].flat())];
  await mapPool(distinct, settings.hashConcurrency, async (file) => {
    hashes.set(file, await sha256File(file).catch(() => null));
  });
  const results = sources.map((s) => ({
    id: s.id,
    fileName: s.file_name,
    matches: (bySize.get(s.byte_size) ?? []).filter((f) => hashes.get(f) === s.sha256).sort(),
  }));
  return { dir, examined: walk.examined, hashed: distinct.length, truncated: walk.truncated, results };
}

/**
 * A file with this SHA-256 under `rawDir`, for a link whose source the workspace lacks: every file
 * is hashed (no size is known), up to the walk's bound. Reads only; ingesting it is the user's choice.
 */
export async function findFileByHash(
  sha256: string,
  rawDir: string,
  workspaceDir: string,
  settings: HealthSettings,
): Promise<{ found: string | null; examined: number; truncated: boolean }> {
  const { dir, rootStat } = await searchRoot(rawDir, workspaceDir);
  const files: string[] = [];
  const walk = await walkTree(dir, rootStat, workspaceDir, settings, (file) => files.push(file));
  for (const file of files) {
    const digest = await sha256File(file).catch(() => null);
    if (digest === sha256) return { found: file, examined: walk.examined, truncated: walk.truncated };
  }
  return { found: null, examined: walk.examined, truncated: walk.truncated };
}
