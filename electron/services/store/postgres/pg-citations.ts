/**
 * Agents' citation writes on PostgreSQL (issue 13): the `citations` area. A cite is one
 * transaction through the retrying pgTransaction, its rows as SQLite's cite writes them
 * (cite-writes.ts: the same session answer, columns, JSON text and entries, in the same order),
 * the entries appended last under the chain's lock. Cites into one session take turns (an
 * advisory lock on the session key, taken with the session's read in one round trip), so each
 * gets the next ordinal and a session is made once. Row-level security holds an agent to its own
 * sessions in its projects: the session and context name the member's login as the agent; any
 * other level is refused (DATABASE_ROLE_REFUSED, naming the level).
 */
import type pg from 'pg';
import { summariseLedger, type CitationStatus, type ClaimVerdict } from '../../../../shared/verification/index.ts';
import type { CustomSourceRow, SessionRow } from '../citations-store.ts';
import { AGENT_VERIFIER, citeEntryPayload, claimKey, ledgerItems, registerEntryPayload, sessionAnswer, type LedgerRowLike, type NewCustomSource, type RegisteredBy } from '../cite-writes.ts';
import type { CitationsArea, CiteWritten, NewCite, StoredSourceRow } from '../evidence-store.ts';
import { STORED_SOURCE_COLUMNS } from '../sources-store.ts';
import { Entries, insertAnswer, insertOne, insertOutcomes, insertRun, unknownSourceId } from './pg-runs.ts';
import { appendEntries } from './pg-audit-chain.ts';
import { pgRead, pgTransaction, type PgContext } from './pg-tx.ts';

/** The first key of the per-session advisory lock a cite takes (the session key's hash is the second). */
export const CITE_SESSION_LOCK_CLASS = 0x45764467;

/** The session's row under its lock (absent: the caller makes it, still under the lock). */
async function lockedSession(c: pg.ClientBase, sessionKey: string): Promise<SessionRow | undefined> {
  const rows = (
    await c.query<SessionRow & { locked: unknown }>('SELECT s.* FROM pg_advisory_xact_lock($1, hashtext($2)) AS locked LEFT JOIN agent_sessions s ON s.session_key = $2', [
      CITE_SESSION_LOCK_CLASS,
      sessionKey,
    ])
  ).rows;
  return rows.find((r) => r.id !== null && r.id !== undefined);
}

/** The session's ordinal count and current citations with their newest result, in one round trip. */
async function ledgerOf(c: pg.ClientBase, answerId: number): Promise<{ count: number; rows: LedgerRowLike[] }> {
  const r = await c.query<{ count: number; rows: LedgerRowLike[] | null }>(
    `SELECT (SELECT count(*) FROM citations WHERE answer_id = $1)::int AS count,
            (SELECT json_agg(l ORDER BY l.ordinal) FROM (
               SELECT c.id, c.ordinal, c.marker, c.claim, r.status, r.verdict, r.confidence FROM citations c
               JOIN citation_results r ON r.id = (SELECT max(id) FROM citation_results WHERE citation_id = c.id)
               WHERE c.answer_id = $1 AND NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id)
             ) l) AS rows`,
    [answerId],
  );
  return { count: r.rows[0]?.count ?? 0, rows: (r.rows[0]?.rows ?? []).map((x) => ({ ...x, id: Number(x.id) })) };
}

async function writeCite(c: pg.ClientBase, ctx: PgContext, cite: NewCite, now: string): Promise<CiteWritten> {
  const entries = new Entries();
  // Row-level security holds an agent to sessions and contexts in its own name.
  const s = { ...cite.session, agentId: ctx.who.login };
  let session = await lockedSession(c, s.sessionKey);
  let count = 0;
  let ledger: LedgerRowLike[] = [];
  if (!session) {
    const answerId = await insertAnswer(c, s.projectId, sessionAnswer(s), entries, now);
    const row = await insertOne(c, 'INSERT INTO agent_sessions (session_key, answer_id, agent_id, user_id, project_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *', [
      s.sessionKey,
      answerId,
      s.agentId,
      s.userId,
      s.projectId,
      now,
    ]);
    entries.row('agent_sessions', row);
    session = row as unknown as SessionRow;
  } else {
    ({ count, rows: ledger } = await ledgerOf(c, session.answer_id));
  }
  const x = cite.citation;
  const marker = String(count + 1);
  const unknownId = x.sourceId === null ? await unknownSourceId(c, x.unknownReference ?? '{}', entries) : null;
  const citationId = entries.row(
    'citations',
    await insertOne(
      c,
      `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, context, source_id, unknown_source_id, claimed_locator, method, confidence, supersedes_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
      [session.answer_id, count, marker, x.claim, x.quote, x.context, x.sourceId, unknownId, JSON.stringify(x.claimedLocator), x.method, x.confidence, x.supersedesId, now],
    ),
  );
  entries.row(
    'citation_contexts',
    await insertOne(
      c,
      'INSERT INTO citation_contexts (citation_id, session_id, agent_id, user_id, project_id, custom_source_id, details, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *',
      [citationId, session.id, s.agentId, session.user_id, session.project_id, cite.customSourceId, JSON.stringify(cite.details), now],
    ),
  );
  const items = ledgerItems(ledger);
  if (x.supersedesId !== null) items.delete(x.supersedesId);
  items.set(citationId, { marker, claimKey: claimKey(x.claim), status: cite.result.status as CitationStatus, verdict: cite.result.verdict as ClaimVerdict, confidence: cite.result.confidence });
  const summary = summariseLedger([...items.values()]);
  const runId = await insertRun(c, session.answer_id, { verifier: AGENT_VERIFIER, summary: summary.summary, riskFlags: summary.riskFlags }, null, entries, now);
  await insertOutcomes(c, runId, [citationId], [{ result: cite.result, closest: null, opinion: null }], entries, now);
  entries.action('citation.cite', citeEntryPayload({ ...cite, session: s }, { answerId: session.answer_id, citationId, runId }));
  await appendEntries(c, entries.list, now);
  return { answerId: session.answer_id, citationId, marker, runId };
}

/** A custom source by its identifier, or made with its row's entry and `source.register`; a teammate's made meanwhile is found. */
async function registerCustom(c: pg.ClientBase, x: NewCustomSource, by: RegisteredBy, now: string): Promise<{ row: CustomSourceRow; added: boolean }> {
  const find = async () => (await c.query<CustomSourceRow>('SELECT * FROM custom_sources WHERE identifier = $1', [x.identifier])).rows[0];
  const existing = await find();
  if (existing) return { row: existing, added: false };
  // DO NOTHING: a teammate's row of the same identifier committed meanwhile is theirs, found below.
  const row = (
    await c.query<CustomSourceRow & Record<string, unknown>>('INSERT INTO custom_sources (identifier, description, kind, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (identifier) DO NOTHING RETURNING *', [
      x.identifier,
      x.description,
      x.kind,
      now,
    ])
  ).rows[0];
  if (!row) {
    const theirs = await find();
    if (!theirs) throw new Error('a custom source was neither inserted nor found');
    return { row: theirs, added: false };
  }
  const entries = new Entries();
  entries.row('custom_sources', row);
  entries.action('source.register', registerEntryPayload({ customSourceId: Number(row.id) }, by));
  await appendEntries(c, entries.list, now);
  return { row: { ...row, id: Number(row.id) }, added: true };
}

export function pgCitations(ctx: PgContext): CitationsArea {
  return {
    async isCitation(id) {
      return (await pgRead<{ id: number }>(ctx, 'read a citation', 'SELECT id FROM citations WHERE id = $1', [id])).length > 0;
    },
    cite: (cite, now) => pgTransaction(ctx, 'cite', (c) => writeCite(c, ctx, cite, now)),
    sourcesAfter: (afterId) => pgRead<StoredSourceRow>(ctx, 'read the sources', `SELECT ${STORED_SOURCE_COLUMNS} FROM sources WHERE id > $1 ORDER BY id`, [afterId]),
    async restrictedIds() {
      return (await pgRead<{ id: number }>(ctx, 'read the sources', 'SELECT id FROM sources WHERE restricted = 1 ORDER BY id', [])).map((r) => r.id);
    },
    async defaultProject() {
      const rows = await pgRead<{ key: string }>(ctx, 'read your projects', "SELECT project_key AS key FROM project_members WHERE member = current_user AND role = 'agent' ORDER BY project_key LIMIT 1", []);
      return rows[0]?.key ?? null;
    },
    registerCustom: (x, by, now) => pgTransaction(ctx, 'register a custom source', (c) => registerCustom(c, x, by, now)),
    recordFileRegistration: (sourceId, by, now) =>
      pgTransaction(ctx, 'record who registered a source', (c) => appendEntries(c, [{ action: 'source.register', payload: registerEntryPayload({ sourceId }, by) }], now)),
  };
}
