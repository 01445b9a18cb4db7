/**
 * Every append-only table refuses every SQL verb and conflict clause that could change or remove a
 * stored row, on the app's own connection and on an outsider's plain connection to the same file
 * (default pragmas: no recursive_triggers, no foreign keys). Table-driven: tables × statements.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, policyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

const APPEND_ONLY = ['citations', 'verification_runs', 'citation_results', 'review_decisions', 'source_properties', 'audit_log'] as const;
type Table = (typeof APPEND_ONLY)[number];

/** A column each table can be "changed" in, and a value for it. */
const EDIT: Record<Table, string> = {
  citations: "claim = 'forged claim'",
  verification_runs: "verifier = 'forged'",
  citation_results: "status = 'verified', verdict = 'supported', score = 1.0",
  review_decisions: "decision = 'rejected'",
  source_properties: `authors = '["Forged Author"]'`,
  audit_log: "action = 'forged'",
};

/** Tables with a UNIQUE key besides the primary key: a new id with that key is still a conflict. */
const UNIQUE_COPY: Partial<Record<Table, string>> = {
  citation_results: 'run_id, citation_id',
  source_properties: 'source_id',
  audit_log: 'hash',
};

function columns(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

/** Every statement that would overwrite or remove row `id` of `table`. */
function statements(db: Database.Database, table: Table, id: number): [string, string][] {
  const cols = columns(db, table);
  const rest = cols.filter((c) => c !== 'id');
  const set = EDIT[table];
  const copy = `SELECT * FROM ${table} WHERE id = ${id}`;
  const list: [string, string][] = [
    ['REPLACE INTO', `REPLACE INTO ${table} ${copy}`],
    ['INSERT OR REPLACE', `INSERT OR REPLACE INTO ${table} ${copy}`],
    ['INSERT OR IGNORE', `INSERT OR IGNORE INTO ${table} ${copy}`],
    ['INSERT OR ABORT', `INSERT OR ABORT INTO ${table} ${copy}`],
    ['INSERT OR FAIL', `INSERT OR FAIL INTO ${table} ${copy}`],
    ['INSERT OR ROLLBACK', `INSERT OR ROLLBACK INTO ${table} ${copy}`],
    ['INSERT', `INSERT INTO ${table} ${copy}`],
    ['UPSERT DO UPDATE (id)', `INSERT INTO ${table} ${copy} ON CONFLICT (id) DO UPDATE SET ${set}`],
    ['UPSERT DO UPDATE (any)', `INSERT INTO ${table} ${copy} ON CONFLICT DO UPDATE SET ${set}`],
    ['UPSERT DO NOTHING', `INSERT INTO ${table} ${copy} ON CONFLICT DO NOTHING`],
    ['UPDATE', `UPDATE ${table} SET ${set} WHERE id = ${id}`],
    ['UPDATE OR REPLACE', `UPDATE OR REPLACE ${table} SET ${set} WHERE id = ${id}`],
    ['UPDATE OR IGNORE', `UPDATE OR IGNORE ${table} SET ${set} WHERE id = ${id}`],
    ['UPDATE id', `UPDATE ${table} SET id = id + 1000 WHERE id = ${id}`],
    ['DELETE', `DELETE FROM ${table} WHERE id = ${id}`],
    ['DELETE all', `DELETE FROM ${table}`],
  ];
  const unique = UNIQUE_COPY[table];
  if (unique) {
    // A copy under a new id that collides on the other UNIQUE key: REPLACE would delete the original.
    const fresh = `SELECT ${rest.join(', ')} FROM ${table} WHERE id = ${id}`;
    const target = `${table} (${rest.join(', ')})`;
    list.push(
      [`REPLACE on UNIQUE (${unique})`, `REPLACE INTO ${target} ${fresh}`],
      [`INSERT OR IGNORE on UNIQUE (${unique})`, `INSERT OR IGNORE INTO ${target} ${fresh}`],
      [`UPSERT DO UPDATE on UNIQUE (${unique})`, `INSERT INTO ${target} ${fresh} ON CONFLICT (${unique}) DO UPDATE SET ${set}`],
      [`UPSERT DO NOTHING on UNIQUE (${unique})`, `INSERT INTO ${target} ${fresh} ON CONFLICT DO NOTHING`],
    );
  }
  return list;
}

function tableDump(db: Database.Database, table: string): string {
  return JSON.stringify(db.prepare(`SELECT * FROM ${table} ORDER BY id`).all());
}

describe('append-only tables refuse every way of changing a stored row', () => {
  let services: TestServices;
  let file: string;
  let outsider: Database.Database;

  beforeAll(async () => {
    services = openTestServices();
    const ws = await policyWorkspace(services);
    const answer = writeFile(
      ws.docs,
      'answer.json',
      nativeAnswer([
        { marker: '1', claim: 'Leave is 14 days.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' } },
        { marker: '2', claim: 'Leave is 20 days.', quote: 'Employees receive 20 days of leave', source: { file: 'HR_Policy.pdf' } },
      ]),
    );
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(answer));
    await callHandler(services, 'answers.review', { citationId: detail.citations[0]?.id, decision: 'accepted' });
    file = path.join(services.workspaceDir, 'workspace.sqlite');
    outsider = new Database(file);
  });
  afterAll(() => {
    outsider.close();
    services.close();
  });

  for (const table of APPEND_ONLY) {
    for (const who of ['the app connection', 'an outsider connection'] as const) {
      it(`${table} on ${who}`, () => {
        const db = who === 'the app connection' ? services.db : outsider;
        const id = (db.prepare(`SELECT min(id) AS id FROM ${table}`).get() as { id: number | null }).id;
        expect(id, `${table} has rows to attack`).not.toBeNull();
        const before = tableDump(db, table);
        const passed: string[] = [];
        for (const [name, sql] of statements(db, table, id ?? 0)) {
          try {
            db.prepare(sql).run();
            passed.push(name);
          } catch (e) {
            expect((e as Error).message, `${name}: ${sql}`).toMatch(/append-only/);
          }
        }
        expect(passed).toEqual([]);
        expect(tableDump(db, table)).toBe(before);
      });
    }
  }

  it('still accepts a row with a new key (appending is what these tables are for)', () => {
    const db = new Database(file);
    try {
      db.exec('BEGIN');
      const before = (db.prepare('SELECT count(*) AS n FROM review_decisions').get() as { n: number }).n;
      db.prepare("INSERT INTO review_decisions (citation_id, decision, created_at) SELECT citation_id, 'flagged', 'now' FROM review_decisions LIMIT 1").run();
      expect((db.prepare('SELECT count(*) AS n FROM review_decisions').get() as { n: number }).n).toBe(before + 1);
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  });

  it('recursive_triggers on the app connection is a second guard: REPLACE fires the DELETE trigger even without the INSERT guard', () => {
    expect(services.db.pragma('recursive_triggers', { simple: true })).toBe(1);
    const db = services.db;
    db.exec('BEGIN');
    try {
      db.exec('DROP TRIGGER review_decisions_no_replace');
      const row = db.prepare('SELECT * FROM review_decisions ORDER BY id LIMIT 1').get() as { id: number };
      expect(() => db.prepare("REPLACE INTO review_decisions (id, citation_id, decision, created_at) SELECT id, citation_id, 'rejected', 'now' FROM review_decisions WHERE id = ?").run(row.id)).toThrow(
        /append-only/,
      );
    } finally {
      db.exec('ROLLBACK');
    }
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'review_decisions_no_replace'").get()).toEqual({ n: 1 });
  });
});
