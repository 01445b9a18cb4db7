import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import type { Health } from '../../../shared/contract/schemas.ts';
import type { EventBus } from '../events.ts';
import { sha256File } from '../hashing/sha256.ts';
import type { CheckSourceRow, CurrentPathRow, HealthArea } from '../store/evidence-store.ts';
import { mapPool, statMany, type StatOutcome } from './file-stats.ts';
import { errorCode, searchRoot, walkTree } from './search-tree.ts';

export type CheckedHealth = Exclude<Health, 'unchecked'>;

export interface SourceHealth {
  id: number;
  fileName: string;
  /** The path that holds the bytes when ok, else the path the source was last recorded at. */
  path: string | null;
  health: CheckedHealth;
  /** Citations that point at this source: what a missing or modified file puts at risk. */
  citations: number;
  detail: string;
}

export interface HealthReport {
  checkedAt: string;
  durationMs: number;
  sources: SourceHealth[];
  counts: Record<CheckedHealth, number>;
}

export interface RelinkSuggestion {
  id: number;
  fileName: string;
  /** Where the source was recorded before (its missing path). */
  fromPath: string | null;
  path: string;
}

export interface RelinkOutcome {
  sourceId: number;
  path: string;
  previousPath: string | null;
  suggestions: RelinkSuggestion[];
}

export type RelinkManyItem =
  | { ok: true; id: number; path: string; previousPath: string | null }
  | { ok: false; id: number; path: string; error: { code: AppError['code']; message: string } };

export interface FolderSearchResult {
  dir: string;
  /** Regular files whose size was looked at. */
  examined: number;
  /** Files hashed because their size matched a wanted source. */
  hashed: number;
  /** The walk stopped at its file or depth bound before seeing everything. */
  truncated: boolean;
  results: { id: number; fileName: string; matches: string[] }[];
}

export interface HealthSettings {
  /** Stat requests in flight during a check. */
  statConcurrency: number;
  /** Files hashed at once when a touched file must be re-hashed. */
  hashConcurrency: number;
  /** Folder levels a folder search descends below the folder it was given. */
  maxSearchDepth: number;
  /** Files a folder search examines before it stops and says so. */
  maxSearchFiles: number;
}

export const DEFAULT_HEALTH_SETTINGS: HealthSettings = { statConcurrency: 64, hashConcurrency: 4, maxSearchDepth: 16, maxSearchFiles: 200_000 };

interface PathVerdict {
  row: CurrentPathRow;
  health: CheckedHealth;
  detail: string;
}

function fsProblem(code: string): string {
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no longer exists';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be reached (permission denied)';
  return `cannot be reached (${code})`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Source health and relinking (DESIGN.md §7). A check stats every current path and hashes only
 * files whose stat changed, so it stays cheap for thousands of sources; a relink is accepted only
 * for the same bytes, and then offers the other missing sources found under the new folder.
 */
export class HealthService {
  private readonly store: HealthArea;
  private readonly events: EventBus;
  private readonly workspaceDir: string;
  private readonly settings: HealthSettings;
  private readonly last = new Map<number, SourceHealth>();
  private fullCheck: Promise<HealthReport> | null = null;

  constructor(store: HealthArea, events: EventBus, workspaceDir: string, settings: Partial<HealthSettings> = {}) {
    this.store = store;
    this.events = events;
    this.workspaceDir = path.resolve(workspaceDir);
    this.settings = { ...DEFAULT_HEALTH_SETTINGS, ...settings };
  }

  /** The last known health of a source, 'unchecked' until a check has seen it. */
  healthOf(sourceId: number): Health {
    return this.last.get(sourceId)?.health ?? 'unchecked';
  }

  /** Every source a check has judged, with its last health (the library's counts). */
  known(): ReadonlyMap<number, SourceHealth> {
    return this.last;
  }

  lastResult(sourceId: number): SourceHealth | undefined {
    return this.last.get(sourceId);
  }

  /** Checks every source, or the named ones. Concurrent full checks share one pass. */
  checkAll(ids?: readonly number[]): Promise<HealthReport> {
    if (ids !== undefined) return this.runCheck(ids);
    this.fullCheck ??= this.runCheck(undefined).finally(() => {
      this.fullCheck = null;
    });
    return this.fullCheck;
  }

  private async runCheck(ids: readonly number[] | undefined): Promise<HealthReport> {
    const t0 = performance.now();
    const sources = await this.evaluate(ids);
    const counts: Record<CheckedHealth, number> = { ok: 0, modified: 0, missing: 0 };
    for (const s of sources) counts[s.health]++;
    this.events.emit({ type: 'sources.health', counts });
    return { checkedAt: new Date().toISOString(), durationMs: performance.now() - t0, sources, counts };
  }

  /** Judges sources without announcing it; remembers every result. */
  private async evaluate(ids: readonly number[] | undefined): Promise<SourceHealth[]> {
    const [sources, paths, citations] = await Promise.all([this.store.sources(ids), this.store.currentPaths(ids), this.store.citationCounts()]);
    const stats = await statMany(
      paths.map((p) => p.path),
      this.settings.statConcurrency,
    );
    const bySource = new Map<number, CheckSourceRow>(sources.map((s) => [s.id, s]));

    // First pass, stat only: most paths are settled here. Touched files wait for the hash pass.
    const verdicts = new Map<number, PathVerdict[]>();
    const toHash: { row: CurrentPathRow; src: CheckSourceRow; stat: StatOutcome & { found: true } }[] = [];
    paths.forEach((row, i) => {
      const src = bySource.get(row.source_id);
      const st = stats[i];
      if (!src || !st) return;
      const list = verdicts.get(src.id) ?? [];
      verdicts.set(src.id, list);
      if (!st.found) list.push({ row, health: 'missing', detail: `${row.path} ${fsProblem(st.code)}` });
      else if (!st.isFile) list.push({ row, health: 'missing', detail: `${row.path} is no longer a file` });
      else if (st.size !== src.byte_size) {
        list.push({ row, health: 'modified', detail: `${row.path} has other bytes now (${st.size} bytes, was ${src.byte_size})` });
      } else if (st.mtimeMs === row.mtime_ms && st.size === row.size) list.push({ row, health: 'ok', detail: 'unchanged' });
      else toHash.push({ row, src, stat: st });
    });

    const confirmed: { pathId: number; stat: { size: number; mtimeMs: number } }[] = [];
    await mapPool(toHash, this.settings.hashConcurrency, async ({ row, src, stat }) => {
      const list = verdicts.get(src.id) ?? [];
      let sha: string;
      try {
        sha = await sha256File(row.path);
      } catch (e) {
        list.push({ row, health: 'missing', detail: `${row.path} ${fsProblem(errorCode(e))}` });
        return;
      }
      if (sha === src.sha256) {
        confirmed.push({ pathId: row.id, stat: { size: stat.size, mtimeMs: stat.mtimeMs } });
        list.push({ row, health: 'ok', detail: 'touched, same bytes' });
      } else {
        list.push({ row, health: 'modified', detail: `${row.path} has other bytes now (its SHA-256 differs)` });
      }
    });

    await this.store.confirmPaths(confirmed, new Date().toISOString());

    return sources.map((src) => {
      const result = this.judge(src, verdicts.get(src.id) ?? [], citations.get(src.id) ?? 0);
      this.last.set(src.id, result);
      return result;
    });
  }

  /** One source from its paths' verdicts: ok when any path is ok, else modified, else missing. */
  private judge(src: CheckSourceRow, verdicts: PathVerdict[], citations: number): SourceHealth {
    const base = { id: src.id, fileName: src.file_name, citations };
    // Keep the store's order (newest path first) whatever order the hash pass finished in.
    const ordered = [...verdicts].sort((a, b) => (b.row.last_seen_at.localeCompare(a.row.last_seen_at)) || b.row.id - a.row.id);
    const primary = ordered[0];
    if (!primary && src.web === 1) {
      return { ...base, path: null, health: 'ok', detail: 'An archived web page: the workspace keeps the copy that was fetched, and citations are checked against it.' };
    }
    if (!primary) {
      return { ...base, path: null, health: 'missing', detail: 'No current path is recorded for this source. Relink it to its file.' };
    }
    const ok = ordered.find((v) => v.health === 'ok');
    if (ok) {
      const others = ordered.filter((v) => v.health !== 'ok').length;
      const detail = others > 0 ? `${ok.detail}; ${plural(others, 'other recorded path')} no longer hold the file` : ok.detail;
      return { ...base, path: ok.row.path, health: 'ok', detail };
    }
    const modified = ordered.find((v) => v.health === 'modified');
    if (modified) {
      return {
        ...base,
        path: modified.row.path,
        health: 'modified',
        detail: `${modified.detail}. Ingest it as a new version, or relink the source to a copy of the original.`,
      };
    }
    return { ...base, path: primary.row.path, health: 'missing', detail: `${primary.detail}. Relink it to where the file is now, or search a folder for it.` };
  }

  /**
   * Points a source at `newPath`, which must hold the same bytes (SHA-256). Paths that no longer
   * hold them stop being current; history is kept. Returns the other missing sources found at the
   * matching place under the new folder (a renamed folder is the common case).
   */
  async relink(sourceId: number, newPath: string, searchedDir?: string): Promise<RelinkOutcome> {
    const done = await this.relinkOne(sourceId, newPath);
    const suggestions = await this.suggest(done.previousPath, done.path, sourceId);
    // The file was found by searching a folder: the other missing files may be anywhere in that tree.
    if (searchedDir !== undefined) suggestions.push(...(await this.suggestInTree(searchedDir, sourceId, suggestions)));
    this.announce();
    return { ...done, suggestions };
  }

  /** Missing sources found exactly once under `dir` (several copies are left for the analyst to pick). */
  private async suggestInTree(dir: string, excludeId: number, already: readonly RelinkSuggestion[]): Promise<RelinkSuggestion[]> {
    const taken = new Set([excludeId, ...already.map((s) => s.id)]);
    const missing = [...this.last.values()].filter((s) => s.health === 'missing' && !taken.has(s.id));
    if (missing.length === 0) return [];
    const fromPath = new Map(missing.map((s) => [s.id, s.path]));
    try {
      const found = await this.searchFolderMany(missing.map((s) => s.id), dir);
      return found.results.flatMap((r) => {
        const only = r.matches.length === 1 ? r.matches[0] : undefined;
        return only !== undefined ? [{ id: r.id, fileName: r.fileName, fromPath: fromPath.get(r.id) ?? null, path: only }] : [];
      });
    } catch (e) {
      if (e instanceof AppError) return []; // the folder went away since the search: no suggestions
      throw e;
    }
  }

  /** Confirms several relinks in one go (e.g. the suggestions); each one is hash-checked on its own. */
  async relinkMany(items: readonly { id: number; path: string }[]): Promise<RelinkManyItem[]> {
    const out: RelinkManyItem[] = [];
    for (const item of items) {
      try {
        const done = await this.relinkOne(item.id, item.path);
        out.push({ ok: true, id: item.id, path: done.path, previousPath: done.previousPath });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        out.push({ ok: false, id: item.id, path: item.path, error: { code: e.code, message: e.message } });
      }
    }
    this.announce();
    return out;
  }

  private announce(): void {
    const counts: Record<CheckedHealth, number> = { ok: 0, modified: 0, missing: 0 };
    for (const s of this.last.values()) counts[s.health]++;
    this.events.emit({ type: 'sources.health', counts });
  }

  private async requireSource(sourceId: number): Promise<CheckSourceRow> {
    const src = (await this.store.sources([sourceId]))[0];
    if (!src) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${sourceId} in this workspace.`);
    return src;
  }

  private async relinkOne(sourceId: number, rawPath: string): Promise<Omit<RelinkOutcome, 'suggestions'>> {
    const src = await this.requireSource(sourceId);
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

    // A current path keeps its place only while it still holds the bytes; the others become history.
    const current = await this.store.currentPaths([sourceId]);
    const holds = await mapPool(current, this.settings.hashConcurrency, (p) => (p.path === newPath ? Promise.resolve(true) : this.holdsBytes(p, src)));
    const stale = current.filter((_, i) => !holds[i]);
    const previousPath = stale[0]?.path ?? null;
    await this.store.relink(sourceId, newPath, { size: st.size, mtimeMs: st.mtimeMs }, stale.map((p) => p.id), new Date().toISOString());
    const citations = (await this.store.citationCounts()).get(sourceId) ?? 0;
    this.last.set(sourceId, { id: sourceId, fileName: src.file_name, path: newPath, health: 'ok', citations, detail: 'relinked' });
    return { sourceId, path: newPath, previousPath };
  }

  /** Whether a recorded path still holds the source's bytes: stat first, hash only a touched file. */
  private async holdsBytes(row: CurrentPathRow, src: CheckSourceRow): Promise<boolean> {
    const [st] = await statMany([row.path]);
    if (!st?.found || !st.isFile || st.size !== src.byte_size) return false;
    if (st.mtimeMs === row.mtime_ms && st.size === row.size) return true;
    return (await sha256File(row.path).catch(() => null)) === src.sha256;
  }

  /**
   * After `fromPath` was relinked to `toPath`, where the other missing sources probably are: the
   * same place relative to the folder that replaced the old one, or the same name beside the new file.
   */
  private async suggest(fromPath: string | null, toPath: string, excludeId: number): Promise<RelinkSuggestion[]> {
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

    const others = (await this.evaluate(undefined)).filter((s) => s.health === 'missing' && s.id !== excludeId && s.path !== null);
    if (others.length === 0) return [];
    const rows = new Map((await this.store.sources(others.map((s) => s.id))).map((r) => [r.id, r]));
    const hashes = new Map<string, Promise<string | null>>();
    const hashOf = (p: string): Promise<string | null> => {
      let h = hashes.get(p);
      if (!h) {
        h = sha256File(p).catch(() => null);
        hashes.set(p, h);
      }
      return h;
    };

    const found = await mapPool(others, this.settings.hashConcurrency, async (s): Promise<RelinkSuggestion | null> => {
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

  /** Looks for one source's bytes under `dir`: candidates by size first, then only those are hashed. */
  async searchFolder(sourceId: number, dir: string): Promise<FolderSearchResult> {
    return this.searchFolderMany([sourceId], dir);
  }

  /**
   * A file with this SHA-256 under `rawDir`, for a link whose source the workspace lacks: every file
   * is hashed (no size is known), up to the walk's bound. Reads only; ingesting it is the user's choice.
   */
  async findByHash(sha256: string, rawDir: string): Promise<{ found: string | null; examined: number; truncated: boolean }> {
    const { dir, rootStat } = await searchRoot(rawDir, this.workspaceDir);
    const files: string[] = [];
    const walk = await walkTree(dir, rootStat, this.workspaceDir, this.settings, (file) => files.push(file));
    for (const file of files) {
      const digest = await sha256File(file).catch(() => null);
      if (digest === sha256) return { found: file, examined: walk.examined, truncated: walk.truncated };
    }
    return { found: null, examined: walk.examined, truncated: walk.truncated };
  }

  /** One walk of `dir` for several sources (e.g. every missing one). */
  async searchFolderMany(sourceIds: readonly number[], rawDir: string): Promise<FolderSearchResult> {
    const sources: CheckSourceRow[] = [];
    for (const id of sourceIds) sources.push(await this.requireSource(id));
    const { dir, rootStat } = await searchRoot(rawDir, this.workspaceDir);

    const wanted = new Set(sources.map((s) => s.byte_size));
    const bySize = new Map<number, string[]>();
    const walk = await walkTree(dir, rootStat, this.workspaceDir, this.settings, (file, size) => {
      if (!wanted.has(size)) return;
      const list = bySize.get(size) ?? [];
      list.push(file);
      bySize.set(size, list);
    });

    const hashes = new Map<string, string | null>();
    const distinct = [...new Set([...bySize.values()].flat())];
    await mapPool(distinct, this.settings.hashConcurrency, async (file) => {
      hashes.set(file, await sha256File(file).catch(() => null));
    });
    const results = sources.map((s) => ({
      id: s.id,
      fileName: s.file_name,
      matches: (bySize.get(s.byte_size) ?? []).filter((f) => hashes.get(f) === s.sha256).sort(),
    }));
    return { dir, examined: walk.examined, hashed: distinct.length, truncated: walk.truncated, results };
  }


}
