/**
 * Checklist: one IMMEDIATE transaction per document (and per answer import, per review), no await
 * inside. Traced on a real workspace file: every statement a write runs, as SQLite receives it.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswersStore } from '../../../electron/services/store/answers-store.ts';
import { DATABASE_FILE, openDatabase } from '../../../electron/services/store/database.ts';
import { SourcesStore } from '../../../electron/services/store/sources-store.ts';
import { tempDir } from '../../support/workspace.ts';

let db: Database.Database | undefined;
afterEach(() => db?.close());

/** A workspace at the latest schema, reopened on a connection that logs each statement. */
function traced(): { db: Database.Database; log: string[] } {
  const dir = tempDir();
  openDatabase(dir).close();
  const log: string[] = [];
  db = new Database(path.join(dir, DATABASE_FILE), { verbose: (sql) => log.push(String(sql).trim().split(/\s+/).slice(0, 3).join(' ')) });
  db.pragma('foreign_keys = ON');
  return { db, log };
}

/** The log from its first BEGIN: each BEGIN with what it wraps, up to its COMMIT. */
function transactions(log: string[]): string[][] {
  const out: string[][] = [];
  let current: string[] | null = null;
  for (const s of log) {
    if (s.startsWith('BEGIN')) current = [s];
    else if (current) {
      current.push(s);
      if (s === 'COMMIT' || s === 'ROLLBACK') {
        out.push(current);
        current = null;
      }
    } else if (/^(INSERT|UPDATE|DELETE|REPLACE)/.test(s)) out.push([`outside a transaction: ${s}`]);
  }
  return out;
}

describe('write transactions', () => {
  it('a document is stored in one BEGIN IMMEDIATE … COMMIT: source, segments, path and its audit entries', () => {
    const { db, log } = traced();
    const sources = new SourcesStore(db);
    log.length = 0;
    sources.insert(
      {
        sha256: 'a'.repeat(64),
        fileName: 'notes.txt',
        byteSize: 30,
        path: '/docs/notes.txt',
        stat: { size: 30, mtimeMs: 1 },
        doc: { kind: 'text', method: 'text@1', title: null, pageCount: null, warnings: [], segments: [{ text: 'line one', line: 1, lineEnd: 1 }, { text: 'line two', line: 2, lineEnd: 2 }] },
        snapshot: null,
        predecessorId: null,
      },
      new Date().toISOString(),
    );
    const txs = transactions(log);
    expect(txs).toHaveLength(1);
    const [tx] = txs;
    expect(tx?.[0]).toBe('BEGIN IMMEDIATE');
    expect(tx?.at(-1)).toBe('COMMIT');
    const writes = tx?.filter((s) => s.startsWith('INSERT')) ?? [];
    expect(writes.filter((s) => s === 'INSERT INTO sources')).toHaveLength(1);
    expect(writes.filter((s) => s === 'INSERT INTO segments')).toHaveLength(2);
    expect(writes.filter((s) => s === 'INSERT INTO source_paths')).toHaveLength(1);
    expect(writes.filter((s) => s.startsWith('INSERT INTO audit_log'))).toHaveLength(2);
  });

  it('an answer import and a review are each one BEGIN IMMEDIATE … COMMIT; a transaction function cannot await', () => {
    const { db, log } = traced();
    const store = new AnswersStore(db);
    log.length = 0;
    const now = new Date().toISOString();
    const answerId = store.transaction(() => {
      const id = store.insertAnswer({ format: 'native', question: 'q', answerText: 'a [1]', origin: 'test', raw: null }, now);
      store.insertCitation(
        { answerId: id, ordinal: 0, marker: '1', claim: 'c', quote: 'q', context: null, sourceId: null, unknownReference: '{"file":"x"}', claimedLocator: {}, method: null, confidence: null, supersedesId: null },
        now,
      );
      store.appendAudit('answer.import', { answerId: id }, now);
      return id;
    });
    const citationId = store.citations(answerId)[0]?.id ?? 0;
    store.transaction(() => store.insertReview({ citationId, decision: 'accepted', note: null, reviewer: null, undoesId: null }, now));
    const txs = transactions(log);
    expect(txs.map((t) => [t[0], t.at(-1)])).toEqual([
      ['BEGIN IMMEDIATE', 'COMMIT'],
      ['BEGIN IMMEDIATE', 'COMMIT'],
    ]);
    // better-sqlite3 refuses a transaction function that returns a promise: nothing can await inside.
    expect(() => store.transaction((async () => undefined) as unknown as () => void)).toThrow(/promise/);
  });
});
