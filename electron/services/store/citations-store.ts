/**
 * All SQL of the citation tools (issue 11): agent sessions (each one a live answer), custom
 * sources, and the context row every agent citation carries. Rows are only inserted, each recorded
 * in the audit chain in the transaction that writes it.
 */
import { StatementCache } from './statement-cache.ts';
import type { ChainStore } from './audit-chain-store.ts';
import type { Db } from './database.ts';

export interface SessionRow {
  id: number;
  session_key: string;
  answer_id: number;
  agent_id: string;
  user_id: string;
  project_id: string;
  created_at: string;
}

export interface CustomSourceRow {
  id: number;
  identifier: string;
  description: string;
  kind: 'database' | 'dataset' | 'other';
  created_at: string;
}

/** An agent citation with its context and its newest verification result. */
export interface AgentCitationRow {
  citation_id: number;
  answer_id: number;
  marker: string;
  claim: string;
  quote: string | null;
  context: string | null;
  source_id: number | null;
  unknown_reference: string | null;
  claimed_locator: string;
  method: string | null;
  confidence: string | null;
  supersedes_id: number | null;
  created_at: string;
  session_key: string;
  agent_id: string;
  user_id: string;
  project_id: string;
  custom_source_id: number | null;
  details: string;
  superseded_by: number | null;
  status: string | null;
  verdict: string | null;
  score: number | null;
  notes: string | null;
  segment_id: number | null;
  start_offset: number | null;
  end_offset: number | null;
  page: number | null;
  page_label: string | null;
  match_method: string | null;
  matched_text: string | null;
}

export interface CitationFilter {
  sessionKey?: string | undefined;
  agentId?: string | undefined;
  userId?: string | undefined;
  projectId?: string | undefined;
  /** A stored status (the six of citation_results). */
  status?: string | undefined;
  sourceId?: number | undefined;
  customSourceId?: number | undefined;
  includeSuperseded: boolean;
  afterId: number;
  limit: number;
}

/** The agent citation with its context and newest result; plain SQL both engines run. */
export const AGENT_CITATION_SELECT = `
  SELECT c.id AS citation_id, c.answer_id, c.marker, c.claim, c.quote, c.context, c.source_id, u.reference AS unknown_reference,
         c.claimed_locator, c.method, c.confidence, c.supersedes_id, c.created_at,
         s.session_key, x.agent_id, x.user_id, x.project_id, x.custom_source_id, x.details,
         (SELECT min(n.id) FROM citations n WHERE n.supersedes_id = c.id) AS superseded_by,
         r.status, r.verdict, r.score, r.notes, r.segment_id, r.start_offset, r.end_offset, r.page, r.page_label, r.match_method, r.matched_text
  FROM citation_contexts x
  JOIN citations c ON c.id = x.citation_id
  JOIN agent_sessions s ON s.id = x.session_id
  LEFT JOIN unknown_sources u ON u.id = c.unknown_source_id
  LEFT JOIN citation_results r ON r.id = (SELECT max(id) FROM citation_results WHERE citation_id = c.id)`;

export class CitationsStore {
  private readonly chain: ChainStore;
  private readonly statements: StatementCache;
  constructor(db: Db, chain: ChainStore) {
    this.chain = chain;
    this.statements = new StatementCache(db);
  }

  private stmt(sql: string): ReturnType<StatementCache['get']> {
    return this.statements.get(sql);
  }

  session(key: string): SessionRow | undefined {
    return this.stmt('SELECT * FROM agent_sessions WHERE session_key = ?').get(key) as SessionRow | undefined;
  }

  sessionById(id: number): SessionRow | undefined {
    return this.stmt('SELECT * FROM agent_sessions WHERE id = ?').get(id) as SessionRow | undefined;
  }

  /** Call inside the transaction that creates the session's answer. */
  insertSession(s: Omit<SessionRow, 'id' | 'created_at'>, now: string): SessionRow {
    const r = this.stmt('INSERT INTO agent_sessions (session_key, answer_id, agent_id, user_id, project_id, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(s.session_key, s.answer_id, s.agent_id, s.user_id, s.project_id, now);
    const id = Number(r.lastInsertRowid);
    this.chain.record('agent_sessions', id, now);
    return { id, ...s, created_at: now };
  }

  customSource(identifier: string): CustomSourceRow | undefined {
    return this.stmt('SELECT * FROM custom_sources WHERE identifier = ?').get(identifier) as CustomSourceRow | undefined;
  }

  customSourceById(id: number): CustomSourceRow | undefined {
    return this.stmt('SELECT * FROM custom_sources WHERE id = ?').get(id) as CustomSourceRow | undefined;
  }

  insertCustomSource(c: Omit<CustomSourceRow, 'id' | 'created_at'>, now: string): CustomSourceRow {
    const r = this.stmt('INSERT INTO custom_sources (identifier, description, kind, created_at) VALUES (?, ?, ?, ?)').run(c.identifier, c.description, c.kind, now);
    const id = Number(r.lastInsertRowid);
    this.chain.record('custom_sources', id, now);
    return { id, ...c, created_at: now };
  }

  insertContext(
    c: { citationId: number; sessionId: number; agentId: string; userId: string; projectId: string; customSourceId: number | null; details: Record<string, unknown> },
    now: string,
  ): void {
    const r = this.stmt('INSERT INTO citation_contexts (citation_id, session_id, agent_id, user_id, project_id, custom_source_id, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(c.citationId, c.sessionId, c.agentId, c.userId, c.projectId, c.customSourceId, JSON.stringify(c.details), now);
    this.chain.record('citation_contexts', Number(r.lastInsertRowid), now);
  }

  /** Citations of an answer so far (superseded ones included): the next one's ordinal. */
  citationCount(answerId: number): number {
    return (this.stmt('SELECT count(*) AS n FROM citations WHERE answer_id = ?').get(answerId) as { n: number }).n;
  }

  /** The answer's current citations with their newest result: what a session's run summarises. */
  ledger(answerId: number): { id: number; marker: string; claim: string; status: string; verdict: string; confidence: number }[] {
    return this.stmt(
      `SELECT c.id, c.marker, c.claim, r.status, r.verdict, r.confidence FROM citations c
       JOIN citation_results r ON r.id = (SELECT max(id) FROM citation_results WHERE citation_id = c.id)
       WHERE c.answer_id = ? AND NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id)
       ORDER BY c.ordinal`,
    ).all(answerId) as { id: number; marker: string; claim: string; status: string; verdict: string; confidence: number }[];
  }

  agentCitation(citationId: number): AgentCitationRow | undefined {
    return this.stmt(`${AGENT_CITATION_SELECT} WHERE c.id = ?`).get(citationId) as AgentCitationRow | undefined;
  }

  isCitation(id: number): boolean {
    return this.stmt('SELECT 1 FROM citations WHERE id = ?').get(id) !== undefined;
  }

  listAgentCitations(f: CitationFilter): AgentCitationRow[] {
    const where: string[] = ['c.id > @afterId'];
    if (f.sessionKey !== undefined) where.push('s.session_key = @sessionKey');
    if (f.agentId !== undefined) where.push('x.agent_id = @agentId');
    if (f.userId !== undefined) where.push('x.user_id = @userId');
    if (f.projectId !== undefined) where.push('x.project_id = @projectId');
    // A custom source's citations are stored as no_quote; to an agent they are 'unverifiable'.
    if (f.status === 'unverifiable') where.push('x.custom_source_id IS NOT NULL');
    else if (f.status !== undefined) where.push('r.status = @status AND x.custom_source_id IS NULL');
    if (f.sourceId !== undefined) where.push('c.source_id = @sourceId');
    if (f.customSourceId !== undefined) where.push('x.custom_source_id = @customSourceId');
    if (!f.includeSuperseded) where.push('NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id)');
    const params: Record<string, unknown> = { afterId: f.afterId, limit: f.limit };
    for (const k of ['sessionKey', 'agentId', 'userId', 'projectId', 'status', 'sourceId', 'customSourceId'] as const) if (f[k] !== undefined) params[k] = f[k];
    if (f.status === 'unverifiable') delete params.status;
    return this.stmt(`${AGENT_CITATION_SELECT} WHERE ${where.join(' AND ')} ORDER BY c.id LIMIT @limit`).all(params) as AgentCitationRow[];
  }

  /** Agent citations written after `afterCitationId` (by any process), for the live feed. */
  contextsAfter(afterCitationId: number, limit: number): { citation_id: number; answer_id: number; session_key: string }[] {
    return this.stmt(
        `SELECT x.citation_id, s.answer_id, s.session_key FROM citation_contexts x JOIN agent_sessions s ON s.id = x.session_id
         WHERE x.citation_id > ? ORDER BY x.citation_id LIMIT ?`,
      )
      .all(afterCitationId, limit) as { citation_id: number; answer_id: number; session_key: string }[];
  }

  lastContextCitationId(): number {
    return (this.stmt('SELECT coalesce(max(citation_id), 0) AS n FROM citation_contexts').get() as { n: number }).n;
  }

  /** The newest version of a source, when one exists. */
  newestSuccessor(sourceId: number): number | null {
    let id = sourceId;
    for (let i = 0; i < 1000; i++) {
      const next = this.stmt('SELECT id FROM sources WHERE predecessor_id = ? ORDER BY id DESC LIMIT 1').get(id) as { id: number } | undefined;
      if (!next) break;
      id = next.id;
    }
    return id === sourceId ? null : id;
  }

  /** Sources whose SHA-256 starts with a prefix. */
  sourcesByShaPrefix(prefix: string): number[] {
    return (this.stmt('SELECT id FROM sources WHERE substr(sha256, 1, ?) = ? ORDER BY id LIMIT 10').all(prefix.length, prefix) as { id: number }[]).map((r) => r.id);
  }
}
