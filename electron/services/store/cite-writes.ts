/**
 * An agent citation's write on SQLite (issue 11, on the store interface since issue 13): the
 * session and its live answer on first use, the citation, its context, a run summarising the
 * session with the new citation's result, and the `citation.cite` entry, all or none. Cites asked
 * for in the same turn share one commit and one fsync (AnswersStore.transactionGrouped, each in
 * its own savepoint); the SQLite engine's `citations` area wraps it. PostgreSQL's is pg-citations.ts.
 */
import { summariseLedger, type CitationStatus, type ClaimVerdict, type LedgerItem } from '../../../shared/verification/index.ts';
import type { AnswersStore } from './answers-store.ts';
import type { CitationsStore, CustomSourceRow, SessionRow } from './citations-store.ts';
import type { CiteSession, CiteWritten, NewCite } from './evidence-store.ts';

/** The verifier name of a session's runs: one run per citation, summarising the whole session. */
export const AGENT_VERIFIER = 'evidesk-cite@1';
export const SESSION_FORMAT = 'agent-session';

/** The live answer a session's citations are collected in (both engines write the same text). */
export function sessionAnswer(s: CiteSession): { format: string; question: string; answerText: string; origin: string; raw: null } {
  return {
    format: SESSION_FORMAT,
    question: `Agent session ${s.sessionKey}`,
    answerText: `Citations made by ${s.agentId} for ${s.userId} (project ${s.projectId}) in session ${s.sessionKey}, as the agent made them.`,
    origin: `agent:${s.agentId}`,
    raw: null,
  };
}

/** A claim's grouping key, as the ledger summary groups claims (case and spacing aside), worked out once. */
export function claimKey(claim: string): string {
  return claim.trim().replace(/\s+/g, ' ').toLowerCase();
}

export interface LedgerRowLike {
  id: number;
  marker: string;
  claim: string;
  status: string;
  verdict: string;
  confidence: number;
}

export function ledgerItems(rows: readonly LedgerRowLike[]): Map<number, LedgerItem> {
  return new Map(rows.map((r) => [r.id, { marker: r.marker, claimKey: claimKey(r.claim), status: r.status as CitationStatus, verdict: r.verdict as ClaimVerdict, confidence: r.confidence }]));
}

/** The citation.cite entry's payload (the same on both engines). */
export function citeEntryPayload(c: NewCite, w: Omit<CiteWritten, 'marker'>): Record<string, unknown> {
  return { answerId: w.answerId, citationId: w.citationId, runId: w.runId, session: c.session.sessionKey, agent: c.session.agentId, status: c.result.status, supersedes: c.citation.supersedesId };
}

/**
 * Each session's ledger as of `count` citations, kept by one process: summarising a long session
 * stays cheap while no other process cites into it (a count that differs reads it again).
 */
export class SessionLedgers {
  private readonly ledgers = new Map<number, { count: number; items: Map<number, LedgerItem> }>();
  get(answerId: number, count: number): Map<number, LedgerItem> | undefined {
    const cached = this.ledgers.get(answerId);
    return cached && cached.count === count ? new Map(cached.items) : undefined;
  }
  set(answerId: number, count: number, items: Map<number, LedgerItem>): void {
    this.ledgers.set(answerId, { count, items });
  }
  clear(): void {
    this.ledgers.clear();
  }
}

function sessionFor(answers: AnswersStore, citations: CitationsStore, s: CiteSession, now: string): SessionRow {
  const existing = citations.session(s.sessionKey);
  if (existing) return existing;
  const answerId = answers.insertAnswer(sessionAnswer(s), now);
  return citations.insertSession({ session_key: s.sessionKey, answer_id: answerId, agent_id: s.agentId, user_id: s.userId, project_id: s.projectId }, now);
}

/** Writes a verified citation (one transaction); the ledger copy is kept only once committed. */
export async function writeCite(answers: AnswersStore, citations: CitationsStore, ledgers: SessionLedgers, c: NewCite, now: string): Promise<CiteWritten> {
  let next: { answerId: number; count: number; items: Map<number, LedgerItem> } | null = null as { answerId: number; count: number; items: Map<number, LedgerItem> } | null;
  const written = await answers.transactionGrouped(() => {
    const session = sessionFor(answers, citations, c.session, now);
    const ordinal = citations.citationCount(session.answer_id);
    const marker = String(ordinal + 1);
    const citationId = answers.insertCitation({ ...c.citation, answerId: session.answer_id, ordinal, marker }, now);
    citations.insertContext(
      { citationId, sessionId: session.id, agentId: c.session.agentId, userId: c.session.userId, projectId: c.session.projectId, customSourceId: c.customSourceId, details: c.details },
      now,
    );
    const result = { ...c.result, citationId };
    // The session's current citations (the new one has no result yet; the one it supersedes has
    // left), from this process's copy while no other process has cited into the session.
    const items = ledgers.get(session.answer_id, ordinal) ?? ledgerItems(citations.ledger(session.answer_id));
    if (c.citation.supersedesId !== null) items.delete(c.citation.supersedesId);
    items.set(citationId, { marker, claimKey: claimKey(c.citation.claim), status: result.status as CitationStatus, verdict: result.verdict as ClaimVerdict, confidence: result.confidence });
    const summary = summariseLedger([...items.values()]);
    const runId = answers.insertRun(session.answer_id, AGENT_VERIFIER, summary.summary, summary.riskFlags, now);
    answers.insertResult(runId, result, now);
    answers.appendAudit('citation.cite', citeEntryPayload(c, { answerId: session.answer_id, citationId, runId }), now);
    // Cites committed with this one read their sessions' ledgers after it: a superseded one may be among them.
    if (c.citation.supersedesId !== null) ledgers.clear();
    next = { answerId: session.answer_id, count: ordinal + 1, items };
    return { answerId: session.answer_id, citationId, marker, runId };
  });
  if (next) {
    // A correction may supersede a citation of another session: those copies are read again.
    if (c.citation.supersedesId !== null) ledgers.clear();
    ledgers.set(next.answerId, next.count, next.items);
  }
  return written;
}

// ---- register_source's records (both engines write the same entries) ----------------------------

/** A custom source to register: a source with no document (a database query, a dataset). */
export type NewCustomSource = Omit<CustomSourceRow, 'id' | 'created_at'>;

/** Who registered a source: the `source.register` entry's `by`. */
export type RegisteredBy = Record<string, unknown>;

/** The `source.register` entry of a stored file's source or of a new custom source. */
export function registerEntryPayload(subject: { sourceId: number } | { customSourceId: number }, by: RegisteredBy): Record<string, unknown> {
  return { ...subject, by };
}

/** A custom source found by its identifier, or made with its row's entry and `source.register` (one transaction). */
export function registerCustomSource(answers: AnswersStore, citations: CitationsStore, c: NewCustomSource, by: RegisteredBy, now: string): { row: CustomSourceRow; added: boolean } {
  return answers.transaction(() => {
    const existing = citations.customSource(c.identifier);
    if (existing) return { row: existing, added: false };
    const row = citations.insertCustomSource(c, now);
    answers.appendAudit('source.register', registerEntryPayload({ customSourceId: row.id }, by), now);
    return { row, added: true };
  });
}

/** Records who registered a stored file's source (`source.register`, one transaction). */
export function recordFileRegistration(answers: AnswersStore, sourceId: number, by: RegisteredBy, now: string): void {
  answers.transaction(() => answers.appendAudit('source.register', registerEntryPayload({ sourceId }, by), now));
}
