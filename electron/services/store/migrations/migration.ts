import type { Db } from '../database.ts';

/**
 * Numbered schema migrations, run in order at open inside one transaction each. Never edit a
 * migration that has shipped: add the next one. Invariants live in the schema (DESIGN.md §3).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** A step SQL cannot do (hashing), run after `sql` in the same transaction. */
  run?: (db: Db) => void;
  /**
   * Rebuilds a table others reference: run with foreign keys off (SQLite's own procedure for a
   * schema change; with them on, dropping the old table would cascade-delete its children), then
   * checked by foreign_key_check before the transaction commits.
   */
  rebuildsReferencedTable?: boolean;
}
