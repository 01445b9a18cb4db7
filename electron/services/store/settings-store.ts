import type { Db } from './database.ts';

/**
 * The reviewer's name, recorded on each decision and offered on every export. The key is the one
 * the export dialog used before decisions carried names, so a name given there is kept.
 */
const REVIEWER_KEY = 'export.reviewer';

/** Workspace settings live in the meta table as JSON values, one row per key. */
export class SettingsStore {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  all(prefix: string): Record<string, unknown> {
    const rows = this.db.prepare('SELECT key, value FROM meta WHERE key LIKE ?').all(`${prefix}%`) as { key: string; value: string }[];
    const out: Record<string, unknown> = {};
    for (const r of rows) {
      try {
        out[r.key.slice(prefix.length)] = JSON.parse(r.value) as unknown;
      } catch {
        // A hand-edited, unparsable value falls back to the default.
      }
    }
    return out;
  }

  setMany(prefix: string, values: Record<string, unknown>): void {
    const put = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.db.transaction(() => {
      for (const [k, v] of Object.entries(values)) if (v !== undefined) put.run(`${prefix}${k}`, JSON.stringify(v));
    })();
  }

  /** The reviewer name last given (null: none yet). */
  reviewerName(): string | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(REVIEWER_KEY) as { value: string } | undefined;
    if (!row) return null;
    try {
      const v = JSON.parse(row.value) as unknown;
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
    } catch {
      return null;
    }
  }

  /** Remembers the reviewer name (null or blank forgets it). */
  setReviewerName(name: string | null): void {
    this.setMany('', { [REVIEWER_KEY]: name?.trim() ?? '' });
  }
}
