/**
 * Watches the folders the sources' files live in, so a file moved, deleted or rewritten while the
 * app is open is marked at once instead of at the next check (issue 12, active source health). The
 * watch is a hint, never the verdict: every event only schedules a health check of the sources it
 * may concern, and the check (size, mtime, then hash) decides.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { EventBus } from '../events.ts';
import type { HealthArea } from '../store/evidence-store.ts';
import type { HealthService } from './health-service.ts';

export interface SourceWatcherOptions {
  /** Past this many folders the watch stops growing: checks on start and on focus still cover them. */
  maxFolders: number;
  /** Events within this window are checked together (a move is an unlink and an add). */
  debounceMs: number;
}

const DEFAULTS: SourceWatcherOptions = { maxFolders: 2000, debounceMs: 250 };
const SYNC_DELAY_MS = 500;

export class SourceWatcher {
  private readonly store: HealthArea;
  private readonly health: HealthService;
  private readonly options: SourceWatcherOptions;
  private readonly events: EventBus;
  private watcher: FSWatcher | null = null;
  private folders = new Set<string>();
  /** Source ids by the file path they are known at. */
  private byPath = new Map<string, number[]>();
  private pending = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private checking: Promise<unknown> = Promise.resolve();

  constructor(store: HealthArea, health: HealthService, events: EventBus, options: Partial<SourceWatcherOptions> = {}) {
    this.store = store;
    this.health = health;
    this.options = { ...DEFAULTS, ...options };
    this.events = events;
  }

  /** Starts watching (resolves once the first folders are watched); new sources and relinks extend the watch as they happen. */
  async start(): Promise<void> {
    if (this.watcher) return;
    this.watcher = watch([], { ignoreInitial: true, depth: 0, persistent: false });
    this.watcher.on('all', (event, file) => this.onFsEvent(event, file));
    // A watch that fails (a folder gone, too many watches) leaves the checks on focus to do the work.
    this.watcher.on('error', () => undefined);
    this.unsubscribe = this.events.subscribe((e) => {
      if (e.type === 'sources.health' || e.type === 'sources.changed') this.syncSoon();
    });
    await this.sync();
  }

  /** Folders watched now (for tests and the bench). */
  watchedFolders(): string[] {
    return [...this.folders];
  }

  /** Resolves once the checks scheduled so far have run. */
  async settled(): Promise<void> {
    while (this.timer !== null || this.pending.size > 0) await new Promise((r) => setTimeout(r, this.options.debounceMs));
    await this.checking;
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.timer = null;
    this.syncTimer = null;
    const w = this.watcher;
    this.watcher = null;
    await w?.close();
  }

  /** One sync for a burst of changes (an ingest of thousands of files announces each one). */
  private syncSoon(): void {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null;
      // A sync that cannot read the paths (a lost connection) leaves the checks on focus to do the work.
      this.sync().catch(() => undefined);
    }, SYNC_DELAY_MS);
  }

  /** Brings the watched folders in line with the sources' current paths. */
  private async sync(): Promise<void> {
    if (!this.watcher) return;
    const rows = await this.store.currentPaths();
    // Stopped while the paths were read.
    if (!this.watcher) return;
    const byPath = new Map<string, number[]>();
    for (const row of rows) {
      const p = path.resolve(row.path);
      byPath.set(p, [...(byPath.get(p) ?? []), row.source_id]);
    }
    this.byPath = byPath;
    const wanted = new Set<string>();
    for (const p of byPath.keys()) {
      if (wanted.size >= this.options.maxFolders) break;
      wanted.add(path.dirname(p));
    }
    const added = [...wanted].filter((f) => !this.folders.has(f));
    const removed = [...this.folders].filter((f) => !wanted.has(f));
    if (removed.length > 0) this.watcher.unwatch(removed);
    if (added.length > 0) this.watcher.add(added);
    this.folders = wanted;
  }

  private onFsEvent(event: string, file: string): void {
    const p = path.resolve(file);
    let ids: number[] = [];
    if (event === 'unlinkDir') {
      // A whole folder went: every source under it.
      const prefix = p + path.sep;
      for (const [known, sourceIds] of this.byPath) if (known.startsWith(prefix)) ids.push(...sourceIds);
    } else {
      ids = this.byPath.get(p) ?? [];
    }
    if (ids.length === 0) return;
    for (const id of ids) this.pending.add(id);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.options.debounceMs);
  }

  private flush(): void {
    this.timer = null;
    const ids = [...this.pending];
    this.pending.clear();
    // The check announces its result (sources.health), which the app listens to.
    this.checking = this.checking.then(() => this.health.checkAll(ids).catch(() => undefined));
  }
}
