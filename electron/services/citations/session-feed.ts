/**
 * The live feed of agent citations: whoever wrote them (this process's HTTP API, or an `evidesk
 * mcp` process on the same workspace), the app hears of them as `citations.added` events. Every
 * commit rewrites the audit head file beside the database, so a watch on that file (inotify and
 * its kin, no polling) tells when to read what is new.
 */
import fs from 'node:fs';
import { HEAD_FILE } from '../../../shared/audit/head.ts';
import type { CitationsStore } from '../store/citations-store.ts';
import type { EventBus } from '../events.ts';

/** Commits close together are read once. */
const SETTLE_MS = 25;
const BATCH = 2000;

export class SessionFeed {
  private readonly store: CitationsStore;
  private readonly events: EventBus;
  private readonly dir: string;
  private lastSeen: number;
  private watcher: fs.FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(store: CitationsStore, events: EventBus, workspaceDir: string) {
    this.store = store;
    this.events = events;
    this.dir = workspaceDir;
    this.lastSeen = store.lastContextCitationId();
  }

  /** Starts watching the workspace folder (the app and browser mode; one-shot commands need not). */
  start(): void {
    if (this.watcher || this.closed) return;
    try {
      this.watcher = fs.watch(this.dir, { persistent: false }, (_kind, name) => {
        if (name === null || name.toString().startsWith(HEAD_FILE)) this.schedule();
      });
      this.watcher.on('error', () => this.stopWatching());
    } catch {
      // No watch (an exotic file system): citations of this process still arrive through poke().
      this.watcher = null;
    }
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.poke();
    }, SETTLE_MS);
    this.timer.unref();
  }

  /** Reads the agent citations written since the last read and emits one event per session. */
  poke(): void {
    if (this.closed) return;
    for (;;) {
      let rows: ReturnType<CitationsStore['contextsAfter']>;
      try {
        rows = this.store.contextsAfter(this.lastSeen, BATCH);
      } catch {
        return; // the database is closing
      }
      if (rows.length === 0) return;
      const bySession = new Map<string, { answerId: number; ids: number[] }>();
      for (const r of rows) {
        const entry = bySession.get(r.session_key) ?? { answerId: r.answer_id, ids: [] };
        entry.ids.push(r.citation_id);
        bySession.set(r.session_key, entry);
        this.lastSeen = Math.max(this.lastSeen, r.citation_id);
      }
      for (const [sessionId, { answerId, ids }] of bySession) this.events.emit({ type: 'citations.added', answerId, sessionId, citationIds: ids });
      if (rows.length < BATCH) return;
    }
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  close(): void {
    this.closed = true;
    this.stopWatching();
    if (this.timer) clearTimeout(this.timer);
  }
}
