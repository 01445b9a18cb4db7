import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import type { Health } from '../../../shared/contract/schemas.ts';
import type { EventBus } from '../events.ts';
import { sha256File } from '../hashing/sha256.ts';
import type { CheckSourceRow, CurrentPathRow, HealthArea } from '../store/evidence-store.ts';
import { mapPool, statMany, type StatOutcome } from './file-stats.ts';
import { findFileByHash, searchFolderFor } from './folder-search.ts';
import {
  DEFAULT_HEALTH_SETTINGS,
  type CheckedHealth,
  type FolderSearchResult,
  type HealthReport,
  type HealthSettings,
  type RelinkManyItem,
  type RelinkOutcome,
  type RelinkSuggestion,
  type SourceHealth,
} from './health-types.ts';
import { suggestMovedCopies } from './relink-suggestions.ts';
import { holdsBytes, requireSameBytes } from './same-bytes.ts';
import { errorCode } from './search-tree.ts';
import { fsProblem, judgeSource, type PathVerdict } from './source-verdict.ts';

export type {
  CheckedHealth,
  FolderSearchResult,
  HealthReport,
  HealthSettings,
  RelinkManyItem,
  RelinkOutcome,
  RelinkSuggestion,
  SourceHealth,
} from './health-types.ts';

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
      const result = judgeSource(src, verdicts.get(src.id) ?? [], citations.get(src.id) ?? 0);
      this.last.set(src.id, result);
      return result;
    });
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
    const { newPath, st } = await requireSameBytes(src, sourceId, rawPath);

    // A current path keeps its place only while it still holds the bytes; the others become history.
    const current = await this.store.currentPaths([sourceId]);
    const holds = await mapPool(current, this.settings.hashConcurrency, (p) => (p.path === newPath ? Promise.resolve(true) : holdsBytes(p, src)));
    const stale = current.filter((_, i) => !holds[i]);
    const previousPath = stale[0]?.path ?? null;
    await this.store.relink(sourceId, newPath, { size: st.size, mtimeMs: st.mtimeMs }, stale.map((p) => p.id), new Date().toISOString());
    const citations = (await this.store.citationCounts()).get(sourceId) ?? 0;
    this.last.set(sourceId, { id: sourceId, fileName: src.file_name, path: newPath, health: 'ok', citations, detail: 'relinked' });
    return { sourceId, path: newPath, previousPath };
  }

  /** The other missing sources found where `fromPath`'s move to `toPath` suggests they went. */
  private async suggest(fromPath: string | null, toPath: string, excludeId: number): Promise<RelinkSuggestion[]> {
    const others = (await this.evaluate(undefined)).filter((s) => s.health === 'missing' && s.id !== excludeId && s.path !== null);
    if (others.length === 0) return [];
    const rows = new Map((await this.store.sources(others.map((s) => s.id))).map((r) => [r.id, r]));
    return suggestMovedCopies(fromPath, toPath, others, rows, this.settings.hashConcurrency);
  }

  /** Looks for one source's bytes under `dir`: candidates by size first, then only those are hashed. */
  async searchFolder(sourceId: number, dir: string): Promise<FolderSearchResult> {
    return this.searchFolderMany([sourceId], dir);
  }

  /**
   * A file with this SHA-256 under `rawDir`, for a link whose source the workspace lacks (see
   * findFileByHash). Reads only; ingesting it is the user's choice.
   */
  findByHash(sha256: string, rawDir: string): Promise<{ found: string | null; examined: number; truncated: boolean }> {
    return findFileByHash(sha256, rawDir, this.workspaceDir, this.settings);
  }

  /** One walk of `dir` for several sources (e.g. every missing one). */
  async searchFolderMany(sourceIds: readonly number[], rawDir: string): Promise<FolderSearchResult> {
    const sources: CheckSourceRow[] = [];
    for (const id of sourceIds) sources.push(await this.requireSource(id));
    return searchFolderFor(sources, rawDir, this.workspaceDir, this.settings);
  }
}
