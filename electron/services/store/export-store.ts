import { randomUUID } from 'node:crypto';
import type { Db } from './database.ts';
import { SettingsStore } from './settings-store.ts';

/** The meta key of the workspace's stable id (made once, at the first export). */
const WORKSPACE_ID_KEY = 'identity.workspaceId';

/** Reads the export service needs beyond AnswersStore's: the workspace id and the reviewer name. */
export class ExportStore {
  private readonly db: Db;
  private readonly settings: SettingsStore;
  constructor(db: Db) {
    this.db = db;
    this.settings = new SettingsStore(db);
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

  /** The reviewer name last given, on a decision or an export (null: none yet). */
  lastReviewer(): string | null {
    return this.settings.reviewerName();
  }

  rememberReviewer(name: string | null): void {
    this.settings.setReviewerName(name);
  }

  /** Whether an audit entry with this hash is in the chain (a report's anchor). */
  hasAuditHash(hash: string): boolean {
    return this.db.prepare('SELECT 1 FROM audit_log WHERE hash = ? LIMIT 1').get(hash) !== undefined;
  }
}
