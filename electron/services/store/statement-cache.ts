import type Database from 'better-sqlite3';
import type { Db } from './database.ts';

/** Statements prepared once per connection and SQL text: stores that run the same few per call. */
export class StatementCache {
  private readonly db: Db;
  private readonly prepared = new Map<string, Database.Statement<unknown[]>>();
  constructor(db: Db) {
    this.db = db;
  }

  get(sql: string): Database.Statement<unknown[]> {
    let s = this.prepared.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.prepared.set(sql, s);
    }
    return s;
  }
}
