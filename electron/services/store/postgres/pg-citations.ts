/**
 * Agents' citation writes on PostgreSQL (issue 13): the `citations` area. A cite is one
 * transaction through the retrying pgTransaction, its rows as SQLite's cite writes them
 * (cite-writes.ts: the same session answer, columns, JSON text and entries, in the same order),
 * written by one call (evidesk_cite, migration 15), their entries appended with the COMMIT under
 * the chain's lock: two round trips (BEGIN with the call, the append with COMMIT) where there
 * were nine. Cites into one session take turns (an advisory lock on the session key, taken first in
 * the call), so each gets the next ordinal and a session is made once. Row-level security holds
 * an agent to its own sessions in its projects: the session and context name the member's login
 * as the agent; any other level is refused (DATABASE_ROLE_REFUSED, naming the level).
 */
import pg from 'pg';
import { summariseLedger, type CitationStatus, type ClaimVerdict, type LedgerItem } from '../../../../shared/verification/index.ts';
import { sha256Text } from '../audit-head-file.ts';
import type { CustomSourceRow } from '../citations-store.ts';
import { AGENT_VERIFIER, citeEntryPayload, claimKey, ledgerItems, registerEntryPayload, sessionAnswer, type LedgerRowLike, type NewCustomSource, type RegisteredBy } from '../cite-writes.ts';
import type { CitationsArea, CiteWritten, NewCite, StoredSourceRow } from '../evidence-store.ts';
import { STORED_SOURCE_COLUMNS } from '../sources-store.ts';
import { appendEntries, appendEntriesWithCommit } from './pg-audit-chain.ts';
import { lastResult, noteTransactionId, withBegin } from './pg-resilience.ts';
import { Entries } from './pg-runs.ts';
import { pgRead, pgTransaction, type PgContext } from './pg-tx.ts';

const { escapeLiteral } = pg;

type Row = Record<string, unknown> & { id: number };

/** What evidesk_cite returns: the rows it wrote, or (writing nothing) the session's ledger as it is. */
type CiteReply =
  | { xid: string; answers: Row | null; agent_sessions: Row | null; unknown_sources: Row | null; citations: Row; citation_contexts: Row; verification_runs: Row; citation_results: Row }
  | { ledger: string | null; count: number; rows: (LedgerRowLike & { result_id: number })[] };

/** A session's ledger as this process last knew it: its citations in force, each with its newest result. */
interface KnownLedger {
  /** evidesk_cite's fingerprint of it (null: no such session). */
  fingerprint: string | null;
  /** Citations in the session, superseded ones included (the next ordinal). */
  count: number;
  items: Map<number, { item: LedgerItem; resultId: number }>;
}

/** The ledger's fingerprint as evidesk_cite computes it (migration 15). */
function fingerprintOf(count: number, items: KnownLedger['items']): string {
  return sha256Text(`${count};${[...items].map(([id, x]) => `${id}:${x.resultId}`).join(',')}`);
}

/** Sessions whose ledgers one member's store keeps (an agent cites into a few at a time). */
const KEPT_LEDGERS = 64;

/** The session's ledger: its rows as evidesk_cite read them, in ordinal order. */
function ledgerFrom(reply: { ledger: string | null; count: number; rows: (LedgerRowLike & { result_id: number })[] }): KnownLedger {
  const rows = reply.rows.map((r) => ({ ...r, id: Number(r.id) }));
  const items = ledgerItems(rows);
  return { fingerprint: reply.ledger, count: reply.count, items: new Map(rows.map((r) => [r.id, { item: items.get(r.id) as LedgerItem, resultId: Number(r.result_id) }])) };
}

/**
 * One call writes the rows (evidesk_cite, migration 15; twice when this process's copy of the
 * session's ledger is not the session's as it is now); their entries go with the COMMIT.
 */
async function writeCite(c: pg.ClientBase, ctx: PgContext, cite: NewCite, known: KnownLedger | undefined, now: string): Promise<{ written: CiteWritten; ledger: KnownLedger }> {
  // Row-level security holds an agent to sessions and contexts in its own name.
  const s = { ...cite.session, agentId: ctx.who.login };
  const x = cite.citation;
  const answer = sessionAnswer(s);
  let ledger: KnownLedger = known ?? { fingerprint: null, count: 0, items: new Map() };
  for (let call = 1; ; call++) {
    const items = new Map([...ledger.items].map(([id, v]) => [id, v.item]));
    if (x.supersedesId !== null) items.delete(x.supersedesId);
    const marker = String(ledger.count + 1);
    items.set(0, { marker, claimKey: claimKey(x.claim), status: cite.result.status as CitationStatus, verdict: cite.result.verdict as ClaimVerdict, confidence: cite.result.confidence });
    const summary = summariseLedger([...items.values()]);
    const { notes, ...result } = cite.result;
    const p = {
      session_key: s.sessionKey, agent_id: s.agentId, user_id: s.userId, project_id: s.projectId, now,
      format: answer.format, question: answer.question, answer_text: answer.answerText, origin: answer.origin,
      claim: x.claim, quote: x.quote, context: x.context, source_id: x.sourceId, unknown_reference: x.sourceId === null ? (x.unknownReference ?? '{}') : null,
      claimed_locator: JSON.stringify(x.claimedLocator), method: x.method, confidence: x.confidence, supersedes_id: x.supersedesId,
      custom_source_id: cite.customSourceId, details: JSON.stringify(cite.details),
      verifier: AGENT_VERIFIER, summary: JSON.stringify(summary.summary), risk_flags: JSON.stringify(summary.riskFlags), result, notes: JSON.stringify(notes),
    };
    // The first call opens the transaction in the same message (its values written in it).
    const sql = `SELECT evidesk_cite(${escapeLiteral(JSON.stringify(p))}, ${ledger.fingerprint === null ? 'NULL' : escapeLiteral(ledger.fingerprint)}) AS r`;
    const reply = lastResult(await c.query<{ r: CiteReply }>(call === 1 ? withBegin(sql) : sql))?.rows[0]?.r;
    if (!reply) throw new Error('evidesk_cite returned nothing');
    if ('ledger' in reply) {
      // The session's ledger as it is now, read under its lock (held to the commit): the second call writes.
      if (call > 1) throw new Error("the session's ledger changed under its lock");
      ledger = ledgerFrom(reply);
      continue;
    }
    const entries = new Entries();
    if (reply.answers) entries.row('answers', reply.answers);
    if (reply.agent_sessions) entries.row('agent_sessions', reply.agent_sessions);
    if (reply.unknown_sources) entries.row('unknown_sources', reply.unknown_sources);
    const citationId = entries.row('citations', reply.citations);
    entries.row('citation_contexts', reply.citation_contexts);
    const runId = entries.row('verification_runs', reply.verification_runs);
    const resultId = entries.row('citation_results', reply.citation_results);
    const answerId = Number(reply.citations.answer_id);
    entries.action('citation.cite', citeEntryPayload({ ...cite, session: s }, { answerId, citationId, runId }));
    noteTransactionId(c, reply.xid);
    appendEntriesWithCommit(c, entries.list, now);
    const next = new Map(ledger.items);
    if (x.supersedesId !== null) next.delete(x.supersedesId);
    next.set(citationId, { item: items.get(0) as LedgerItem, resultId });
    const count = ledger.count + 1;
    return { written: { answerId, citationId, marker, runId }, ledger: { fingerprint: fingerprintOf(count, next), count, items: next } };
  }
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
  const ledgers = new Map<string, KnownLedger>();
  return {
    async isCitation(id) {
      return (await pgRead<{ id: number }>(ctx, 'read a citation', 'SELECT id FROM citations WHERE id = $1', [id])).length > 0;
    },
    async cite(cite, now) {
      const key = cite.session.sessionKey;
      const known = ledgers.get(key);
      ledgers.delete(key);
      const { written, ledger } = await pgTransaction(ctx, 'cite', (c) => writeCite(c, ctx, cite, known, now), 'begun by fn');
      // Kept once committed, newest last (the oldest session's copy goes first).
      ledgers.set(key, ledger);
      if (ledgers.size > KEPT_LEDGERS) ledgers.delete(ledgers.keys().next().value as string);
      return written;
    },
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
