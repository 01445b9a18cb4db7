// All SQL about library changes (migration 15): an answer renamed, an answer or a source removed
// from view. Nothing is deleted: each change is an appended row recorded in the audit chain, and
// the newest row of a kind decides (the views hidden_subjects and subject_names say which).
import { ChainStore } from './audit-chain-store.ts';
import type { Db } from './database.ts';

export type Subject = 'answer' | 'source';
export type ChangeAction = 'rename' | 'hide' | 'show';

/** The ids of the sources removed from the library: every list and search leaves them out. */
export const REMOVED_SOURCE_IDS = "SELECT subject_id FROM hidden_subjects WHERE subject = 'source'";

export class LibraryChangesStore {
  readonly db: Db;
  private readonly chain: ChainStore;
  constructor(db: Db) {
    this.db = db;
    this.chain = new ChainStore(db);
  }

  /** Appends one change and its audit entry in one transaction; the head file follows the commit. */
  append(subject: Subject, subjectId: number, action: ChangeAction, value: string | null, now: string): number {
    const id = this.db
      .transaction(() => {
        const r = this.db
          .prepare('INSERT INTO library_changes (subject, subject_id, action, value, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(subject, subjectId, action, value, now);
        const rowId = Number(r.lastInsertRowid);
        this.chain.record('library_changes', rowId, now, `${subject}.${action}`, { id: subjectId, ...(value === null ? {} : { value }) });
        return rowId;
      })
      .immediate();
    this.chain.publishHead();
    return id;
  }

  /** Ids of the subjects of one kind that are hidden now. */
  hidden(subject: Subject): Set<number> {
    const rows = this.db.prepare('SELECT subject_id AS id FROM hidden_subjects WHERE subject = ?').all(subject) as { id: number }[];
    return new Set(rows.map((r) => r.id));
  }

  isHidden(subject: Subject, id: number): boolean {
    return this.db.prepare('SELECT 1 FROM hidden_subjects WHERE subject = ? AND subject_id = ?').get(subject, id) !== undefined;
  }

  /** The names given to subjects of one kind, by id (only those renamed). */
  names(subject: Subject): Map<number, string> {
    const rows = this.db.prepare('SELECT subject_id AS id, name FROM subject_names WHERE subject = ?').all(subject) as { id: number; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Answers imported from exactly this text, newest first, hidden ones left out. */
  answersWithRaw(raw: string): { id: number; origin: string; question: string | null; created_at: string }[] {
    return this.db
      .prepare(
        `SELECT a.id, a.origin, a.question, a.created_at FROM answers a
         WHERE a.raw = ? AND a.id NOT IN (SELECT subject_id FROM hidden_subjects WHERE subject = 'answer')
         ORDER BY a.id DESC`,
      )
      .all(raw) as { id: number; origin: string; question: string | null; created_at: string }[];
  }
}
