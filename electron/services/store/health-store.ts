import { ChainStore } from './audit-chain-store.ts';
import type { Db } from './database.ts';
import type { FileStat } from './sources-store.ts';

/** A source with what a health check needs to judge it: its identity and its size. */
const WEB = 'EXISTS (SELECT 1 FROM web_fetches w WHERE w.source_id = sources.id) AS web';

export interface CheckSourceRow {
  id: number;
  sha256: string;
  file_name: string;
  byte_size: number;
  /** 1 for an archived web page: it has no file of its own, its snapshot is the copy. */
  web: number;
}

/** One current path of a source, with the stat data recorded when its bytes were last confirmed. */
export interface CurrentPathRow {
  id: number;
  source_id: number;
  path: string;
  size: number;
  mtime_ms: number;
  last_seen_at: string;
}

/** The SQL of source health and relinking (DESIGN.md §7). */
export class HealthStore {
  readonly db: Db;
  private readonly chain: ChainStore;
  constructor(db: Db) {
    this.db = db;
    this.chain = new ChainStore(db);
  }

  /** Every source (or the named ones), in id order. */
  sources(ids?: readonly number[]): CheckSourceRow[] {
    if (ids === undefined) {
      return this.db.prepare(`SELECT id, sha256, file_name, byte_size, ${WEB} FROM sources ORDER BY id`).all() as CheckSourceRow[];
    }
    if (ids.length === 0) return [];
    // json_each keeps one prepared statement whatever the number of ids (no 999-parameter limit).
    return this.db
      .prepare(`SELECT id, sha256, file_name, byte_size, ${WEB} FROM sources WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`)
      .all(JSON.stringify(ids)) as CheckSourceRow[];
  }

  /** Current paths, newest first within a source, so the first one is the path the app shows. */
  currentPaths(ids?: readonly number[]): CurrentPathRow[] {
    const cols = 'id, source_id, path, size, mtime_ms, last_seen_at';
    if (ids === undefined) {
      return this.db
        .prepare(`SELECT ${cols} FROM source_paths WHERE current = 1 ORDER BY source_id, last_seen_at DESC, id DESC`)
        .all() as CurrentPathRow[];
    }
    if (ids.length === 0) return [];
    return this.db
      .prepare(
        `SELECT ${cols} FROM source_paths WHERE current = 1 AND source_id IN (SELECT value FROM json_each(?))
         ORDER BY source_id, last_seen_at DESC, id DESC`,
      )
      .all(JSON.stringify(ids)) as CurrentPathRow[];
  }

  /** How many citations point at each source: what a missing file puts at risk. */
  citationCounts(): Map<number, number> {
    const rows = this.db
      .prepare('SELECT source_id, count(*) AS n FROM citations WHERE source_id IS NOT NULL GROUP BY source_id')
      .all() as { source_id: number; n: number }[];
    return new Map(rows.map((r) => [r.source_id, r.n]));
  }

  /**
   * The bytes at these paths were re-hashed and are unchanged (touched): remember their new stat so
   * the next check skips the hash. One transaction, so a thousand touched files cost one commit.
   */
  confirmPaths(confirmed: readonly { pathId: number; stat: FileStat }[], now: string): void {
    if (confirmed.length === 0) return;
    const update = this.db.prepare('UPDATE source_paths SET size = ?, mtime_ms = ?, last_seen_at = ? WHERE id = ?');
    this.db.transaction(() => {
      for (const c of confirmed) update.run(c.stat.size, c.stat.mtimeMs, now, c.pathId);
    })();
  }

  /**
   * Records a relink in one transaction: `newPath` becomes a current path of the source and the
   * `stalePathIds` (paths that no longer hold its bytes) stop being current. Old rows stay: they
   * are the source's path history.
   */
  relink(sourceId: number, newPath: string, stat: FileStat, stalePathIds: readonly number[], now: string): void {
    const retire = this.db.prepare('UPDATE source_paths SET current = 0 WHERE id = ? AND source_id = ?');
    const upsert = this.db.prepare(
      `INSERT INTO source_paths (source_id, path, size, mtime_ms, first_seen_at, last_seen_at, current)
       VALUES (?, ?, ?, ?, ?, ?, 1)
       ON CONFLICT (source_id, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
         last_seen_at = excluded.last_seen_at, current = 1`,
    );
    this.db.transaction(() => {
      const known = this.db.prepare('SELECT id FROM source_paths WHERE source_id = ? AND path = ?').get(sourceId, newPath) as { id: number } | undefined;
      for (const id of stalePathIds) retire.run(id, sourceId);
      const r = upsert.run(sourceId, newPath, stat.size, stat.mtimeMs, now, now);
      const pathId = known?.id ?? Number(r.lastInsertRowid);
      // A new path is a row of the record; the relink itself (which paths it retired) is an action entry.
      if (!known) this.chain.record('source_paths', pathId, now);
      this.chain.append({ action: 'source.relink', payload: { sourceId, pathId, path: newPath, retired: stalePathIds } }, now);
    })();
    this.chain.publishHead();
  }
}
