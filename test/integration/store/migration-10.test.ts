/**
 * Migration 10 (issue 11): agent sessions, custom sources and citation contexts over a workspace
 * that already holds an answer. The context is NOT NULL, the tables are append-only, and rows
 * written through the stores are in the audit chain.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AuditService } from '../../../electron/services/audit/audit-service.ts';
import { AnswersStore } from '../../../electron/services/store/answers-store.ts';
import { CitationsStore } from '../../../electron/services/store/citations-store.ts';
import { openDatabase, schemaVersion, type Db } from '../../../electron/services/store/database.ts';
import { tempDir } from '../../support/workspace.ts';

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

describe('migration 10: agent sessions and citing contexts', () => {
  it('applies over a v6 workspace with an answer, and holds its invariants', () => {
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: 6 });
    const old = new AnswersStore(before);
    old.transaction(() => {
      const answerId = old.insertAnswer({ format: 'native', question: 'q', answerText: 'a', origin: 'test', raw: null }, 'then');
      old.insertCitation({ answerId, ordinal: 0, marker: '1', claim: 'c', quote: null, context: null, sourceId: null, unknownReference: '{"file":"x.pdf"}', claimedLocator: {}, method: null, confidence: null, supersedesId: null }, 'then');
    });
    before.close();

    const db = openDatabase(dir, { targetVersion: 10 });
    opened.push(db);
    expect(schemaVersion(db)).toBe(10);
    const answers = new AnswersStore(db);
    const store = new CitationsStore(db, answers.chain);
    answers.transaction(() => {
      const answerId = answers.insertAnswer({ format: 'agent-session', question: 'Agent session s1', answerText: '…', origin: 'agent:a1', raw: null }, 'now');
      const session = store.insertSession({ session_key: 's1', answer_id: answerId, agent_id: 'a1', user_id: 'u1', project_id: 'p1' }, 'now');
      const custom = store.insertCustomSource({ identifier: 'db:t', description: 'a table', kind: 'database' }, 'now');
      const citationId = answers.insertCitation({ answerId, ordinal: 0, marker: '1', claim: 'c', quote: null, context: 'x', sourceId: null, unknownReference: '{"custom":"db:t"}', claimedLocator: {}, method: null, confidence: null, supersedesId: null }, 'now');
      store.insertContext({ citationId, sessionId: session.id, agentId: 'a1', userId: 'u1', projectId: 'p1', customSourceId: custom.id, details: {} }, 'now');
    });
    expect(store.session('s1')).toMatchObject({ agent_id: 'a1', user_id: 'u1', project_id: 'p1' });
    expect(store.contextsAfter(0, 10)).toEqual([{ citation_id: 2, answer_id: 2, session_key: 's1' }]);

    // NOT NULL context, append-only rows.
    expect(() => db.prepare("INSERT INTO citation_contexts (citation_id, session_id, agent_id, user_id, project_id, details, created_at) VALUES (1, 1, NULL, 'u', 'p', '{}', 'now')").run()).toThrow(/NOT NULL/);
    expect(() => db.prepare("INSERT INTO citation_contexts (citation_id, session_id, agent_id, user_id, project_id, details, created_at) VALUES (1, 1, '', 'u', 'p', '{}', 'now')").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE citation_contexts SET agent_id = 'other'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM agent_sessions').run()).toThrow(/append-only/);
    expect(() => db.prepare("INSERT OR REPLACE INTO custom_sources (id, identifier, description, kind, created_at) VALUES (1, 'db:t', 'changed', 'database', 'now')").run()).toThrow(/append-only/);
    expect(() => db.prepare("INSERT INTO agent_sessions (session_key, answer_id, agent_id, user_id, project_id, created_at) VALUES ('s1', 1, 'a', 'u', 'p', 'now')").run()).toThrow(/append-only/);

    // The old rows were backfilled by migration 6; the new ones were recorded as they were written.
    expect(new AuditService(db).check()).toMatchObject({ ok: true });
    // A row slipped in behind the stores' back is caught.
    db.prepare("INSERT INTO custom_sources (identifier, description, kind, created_at) VALUES ('db:sneaky', 'x', 'other', 'now')").run();
    expect(new AuditService(db).check()).toMatchObject({ ok: false, brokenAt: { kind: 'inserted', table: 'custom_sources' } });
  });
});
