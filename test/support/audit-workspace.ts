/**
 * A real workspace with a record worth tampering with: two ingested sources, an imported answer
 * (citations, a run, results, an unknown source), review decisions. And the tools of a tamperer:
 * a separate raw connection that drops the append-only guards, and the chain's own formulas to
 * recompute hashes.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { readAnswerFile } from '../../electron/cli/answer-file.ts';
import { sha256Text } from '../../electron/services/store/audit-head-file.ts';
import { entryHash, rowHash, type ChainTable } from '../../shared/audit/canonical.ts';
import type { AnswerDetail } from '../../shared/contract/answer-schemas.ts';
import { writeFile } from './pdf-fixtures.ts';
import { nativeAnswer, policyWorkspace } from './policy-workspace.ts';
import { callHandler, openTestServices, tempDir } from './workspace.ts';

/** Builds the workspace, closes it, and returns its folder. */
export async function chainedWorkspace(): Promise<string> {
  const services = openTestServices();
  try {
    const ws = await policyWorkspace(services);
    const answer = writeFile(
      ws.docs,
      'answer.json',
      nativeAnswer([
        { marker: '1', claim: 'Leave is 14 days.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' } },
        { marker: '2', claim: 'Leave is 20 days.', quote: 'Employees receive 20 days of leave', source: { file: 'HR_Policy.pdf' } },
        { marker: '3', claim: 'The budget was approved.', quote: 'The budget was approved.', source: { file: 'Budget.xlsx' } },
      ]),
    );
    const detail = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(answer));
    await callHandler(services, 'answers.review', { citationId: detail.citations[0]?.id, decision: 'accepted' });
    await callHandler(services, 'answers.review', { citationId: detail.citations[1]?.id, decision: 'rejected', note: 'not in the policy' });
    return services.workspaceDir;
  } finally {
    services.close();
  }
}

/** A fresh copy of a built workspace folder, for one tamper each. */
export function copyWorkspace(dir: string): string {
  const copy = path.join(tempDir('evidesk-tamper-'), 'workspace');
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

/** An outsider's connection to the workspace file with every append-only trigger dropped. */
export function tamperer(workspace: string): Database.Database {
  const db = new Database(path.join(workspace, 'workspace.sqlite'));
  const triggers = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB '*_no_*'").all() as { name: string }[];
  for (const t of triggers) db.exec(`DROP TRIGGER "${t.name}"`);
  return db;
}

export interface RawEntry {
  id: number;
  seq: number;
  action: string;
  payload: string;
  created_at: string;
  prev_hash: string;
  hash: string;
  table_name: string | null;
  row_id: number | null;
  row_hash: string | null;
}

/**
 * Recomputes, as a tamperer with our code would, the row hash of every entry from `fromId` on and
 * every entry hash and link after it: the chain inside the database checks out again.
 */
export function recomputeFrom(db: Database.Database, fromId: number): void {
  const rows = db.prepare('SELECT * FROM audit_log WHERE id >= ? ORDER BY id').all(fromId) as RawEntry[];
  let prev = (db.prepare('SELECT hash FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT 1').get(fromId) as { hash: string }).hash;
  const update = db.prepare('UPDATE audit_log SET prev_hash = ?, row_hash = ?, hash = ? WHERE id = ?');
  for (const e of rows) {
    let rh = e.row_hash;
    if (e.table_name !== null && e.row_id !== null) {
      const row = db.prepare(`SELECT * FROM ${e.table_name} WHERE id = ?`).get(e.row_id) as Record<string, unknown>;
      rh = rowHash(e.table_name as ChainTable, row, sha256Text);
    }
    const hash = entryHash({ seq: e.seq, prevHash: prev, action: e.action, table: e.table_name, rowId: e.row_id, rowHash: rh, payload: e.payload, createdAt: e.created_at }, sha256Text);
    update.run(prev, rh, hash, e.id);
    prev = hash;
  }
}
