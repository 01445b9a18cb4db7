import fs from 'node:fs';
import path from 'node:path';
import { sha256File } from '../hashing/sha256.ts';
import type { CheckSourceRow } from '../store/evidence-store.ts';
import { mapPool } from './file-stats.ts';
import type { RelinkSuggestion, SourceHealth } from './health-types.ts';

/**
 * After `fromPath` was relinked to `toPath`, where the other missing sources probably are: the
 * same place relative to the folder that replaced the old one, or the same name beside the new file.
 * `missing` are those sources as the last check saw them, `rows` their stored rows.
 */
export async function suggestMovedCopies(
  fromPath: string | null,
  toPath: string,
  missing: readonly SourceHealth[],
  rows: ReadonlyMap<number, CheckSourceRow>,
  hashConcurrency: number,
): Promise<RelinkSuggestion[]> {
  const mappings: [string, string][] = [];
  if (fromPath !== null) {
    // /a/old/sub/x.pdf → /b/new/sub/x.pdf means /a/old was replaced by /b/new.
    const from = fromPath.split(path.sep);
    const to = toPath.split(path.sep);
    while (from.length > 1 && to.length > 1 && from[from.length - 1] === to[to.length - 1]) {
      from.pop();
      to.pop();
    }
    mappings.push([from.join(path.sep), to.join(path.sep)]);
    mappings.push([path.dirname(fromPath), path.dirname(toPath)]);
  }
  const newDir = path.dirname(toPath);

  const hashes = new Map<string, Promise<string | null>>();
  const hashOf = (p: string): Promise<string | null> => {
    let h = hashes.get(p);
    if (!h) {
      h = sha256File(p).catch(() => null);
      hashes.set(p, h);
    }
    return h;
  };

  const found = await mapPool(missing, hashConcurrency, async (s): Promise<RelinkSuggestion | null> => {
    const src = rows.get(s.id);
    const old = s.path;
    if (!src || old === null) return null;
    const candidates = new Set<string>();
    for (const [a, b] of mappings) {
      if (a && old.startsWith(a + path.sep)) candidates.add(b + old.slice(a.length));
    }
    candidates.add(path.join(newDir, path.basename(old)));
    candidates.delete(old);
    for (const candidate of candidates) {
      let st: fs.Stats;
      try {
        st = await fs.promises.stat(candidate);
      } catch {
        continue;
      }
      if (st.isFile() && st.size === src.byte_size && (await hashOf(candidate)) === src.sha256) {
        return { id: s.id, fileName: s.fileName, fromPath: old, path: candidate };
      }
    }
    return null;
  });
  return found.filter((f): f is RelinkSuggestion => f !== null);
}
