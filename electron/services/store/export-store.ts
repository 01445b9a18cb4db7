import { randomUUID } from 'node:crypto';
import type { Db } from './database.ts';
import type { ReviewRow } from './answers-store.ts';

/** The meta key of the workspace's stable id (made once, at the first export). */
const WORKSPACE_ID_KEY = 'identity.workspaceId';
const REVIEWER_KEY = 'export.reviewer';

/** Reads the export service needs beyond AnswersStore's: the whole review trail and the workspace id. */
export class ExportStore {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Every review row of a citation, oldest first: a change of mind is a new row, so this is the trail. */
  reviews(citationId: number): ReviewRow[] {
    return this.db.prepare('SELECT * FROM review_decisions WHERE citation_id = ? ORDER BY id').all(citationId) as ReviewRow[];
  }

  /**
   * The workspace's id, made on first use and kept in the meta table (a value, not evidence, so it
   * is not a chain row). INSERT OR IGNORE: two processes exporting at once agree on one id.
   */
  workspaceId(): string {
    this.db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(WORKSPACE_ID_KEY, JSON.stringify(randomUUID()));
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(WORKSPACE_ID_KEY) as { value: string };
    try {
      const v = JSON.parse(row.value) as unknown;
      if (typeof v === 'string' && v.length > 0) return v;
    } catch {
      // A hand-edited value: use it as written.
    }
    return row.value;
  }

  /** The workspace's id if it has been made (read only: a check never writes). */
  storedWorkspaceId(): string | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(WORKSPACE_ID_KEY) as { value: string } | undefined;
    if (!row) return null;
    try {
      const v = JSON.parse(row.value) as unknown;
      return typeof v === 'string' ? v : row.value;
    } catch {
      return row.value;
    }
  }

  /** The reviewer name the last export gave, remembered for the next (null: none given yet). */
  lastReviewer(): string | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(REVIEWER_KEY) as { value: string } | undefined;
    if (!row) return null;
    try {
      const v = JSON.parse(row.value) as unknown;
      return typeof v === 'string' && v !== '' ? v : null;
    } catch {
      return null;
    }
  }

  rememberReviewer(name: string | null): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(REVIEWER_KEY, JSON.stringify(name ?? ''));
  }

  /** Whether an audit entry with this hash is in the chain (a report's anchor). */
  hasAuditHash(hash: string): boolean {
    return this.db.prepare('SELECT 1 FROM audit_log WHERE hash = ? LIMIT 1').get(hash) !== undefined;
  }
}
