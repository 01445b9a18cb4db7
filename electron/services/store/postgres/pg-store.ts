/**
 * The PostgreSQL store of a shared workspace (issue 13), first step: a typed async store with the
 * operations the access tests need. A member connects as its own login role; PostgreSQL enforces
 * what its access level may do (grants and row-level security, schema-access.ts). Each operation is
 * one transaction whose audit entries are appended last, under the chain's lock.
 */
import pg from 'pg';
import type { ChainTable } from '../../../../shared/audit/canonical.ts';
import type { AuditHead } from '../../../../shared/audit/head.ts';
import type { CitationRow } from '../answers-store.ts';
import { ROW_APPEND } from '../audit-chain-store.ts';
import { PgChangeFeed, type ChangeFeedOptions } from './pg-changes.ts';
import { appendEntries, recordedHead, verifyPgChain, type PgChainReport, type RecordedHead } from './pg-audit-chain.ts';
import { storeError, type Who } from './pg-errors.ts';
import { DEFAULT_RETRY, DEFAULT_TIMEOUTS, runTransaction, streamOn, type RetryPolicy } from './pg-resilience.ts';
import { readSnapshot, writeSnapshot } from './pg-snapshots.ts';
import { ACCESS_LEVELS, type AccessLevel } from './schema-access.ts';

const INT8_OID = 20;

/** bigint columns (ids, sizes, counts) as numbers: every one of ours stays far below 2^53. */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`A bigint value (${text}) is beyond what Evidence Desk counts exactly.`);
  return n;
}

/** Type parsers for every connection of ours (the owner's too). */
export const PG_TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === INT8_OID && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format ?? 'text')),
} as unknown as pg.CustomTypesConfig;

/** Options for a pool of connections of one member. */
export interface PgPoolOptions {
  max?: number;
  /** Session limits (pg-resilience.ts has the defaults); a statement or lock wait past them is DATABASE_TIMEOUT. */
  statementTimeoutMs?: number;
  lockTimeoutMs?: number;
  /** How writes are tried again after a lost connection or a serialization failure. */
  retry?: RetryPolicy;
}

export function createPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 4,
    types: PG_TYPES,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_TIMEOUTS.statementTimeoutMs,
    lock_timeout: options.lockTimeoutMs ?? DEFAULT_TIMEOUTS.lockTimeoutMs,
  });
  // An idle connection that drops is replaced at the next checkout; a broken one must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

export type SourceKind = 'pdf' | 'docx' | 'text' | 'markdown' | 'html' | 'pptx' | 'xlsx';

export interface PgSegment {
  text: string;
  locator: unknown;
  page?: number | null;
  /** Where a text or Markdown line, a DOCX/HTML block or a page's printed label is: the anchoring checks a claimed line or block against them. */
  pageLabel?: string | null;
  paragraph?: number | null;
  lineStart?: number | null;
  lineEnd?: number | null;
  headingPath?: string | null;
  blockType?: string | null;
  /** Where each text item of a PDF page starts (JSON): the viewer's and excerpts' geometry. */
  itemStarts?: string | null;
}

export interface PgNewSource {
  sha256: string;
  kind: SourceKind;
  fileName: string;
  byteSize: number;
  pageCount: number | null;
  title: string | null;
  extractionMethod: string;
  warnings?: unknown[];
  predecessorId?: number | null;
  segments: readonly PgSegment[];
  /** Where this member's copy of the file is (kept per member, for relinking). */
  path?: { path: string; size: number; mtimeMs: number };
}

export interface PgSession {
  sessionId: number;
  answerId: number;
  projectKey: string;
}

export interface PgNewCitation {
  answerId: number;
  marker: string;
  claim: string;
  quote: string | null;
  sourceId: number;
  locator: unknown;
  method?: 'direct_quote' | 'paraphrase' | 'inference' | 'aggregation' | 'negative';
}

/** A citation as the SQLite store returns it, less the joined unknown-source reference. */
export type PgCitationRow = Omit<CitationRow, 'unknown_reference'>;

export type Decision = 'accepted' | 'rejected' | 'flagged' | 'cleared';

/** Where a stored snapshot is named, as a SQLite workspace names it (the row then hashes alike). */
function snapshotName(sha256: string): string {
  return `blobs/sha256/${sha256.slice(0, 2)}/${sha256}`;
}

/** The first key of the per-citation advisory lock a decision takes (the citation id is the second). */
export const DECISION_LOCK_CLASS = 0x45764465;
/** The first key of the per-answer advisory lock a citation takes (the answer id is the second). */
export const CITATION_LOCK_CLASS = 0x45764466;

/** The most capable level a login holds (a login normally holds one). */
const LEVEL_PRIORITY: readonly AccessLevel[] = ['admin', 'auditor', 'reviewer', 'agent'];

/** The login a connection URL names ('' when it names none or is not a URL). */
function loginOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).username);
  } catch {
    return '';
  }
}

export class PgStore {
  /** The member's own connections: whatever runs on them is bound by its level, raw SQL too. */
  readonly pool: pg.Pool;
  readonly who: Who;
  readonly levels: readonly AccessLevel[];
  private readonly url: string;
  private readonly retry: RetryPolicy;

  private constructor(url: string, pool: pg.Pool, login: string, levels: AccessLevel[], retry: RetryPolicy) {
    this.url = url;
    this.retry = retry;
    this.pool = pool;
    this.levels = levels;
    this.who = { login, level: LEVEL_PRIORITY.find((l) => levels.includes(l)) ?? null };
  }

  /** Connects as the member the URL names and learns its access level from PostgreSQL. */
  static async connect(url: string, options: PgPoolOptions = {}): Promise<PgStore> {
    const pool = createPool(url, options);
    try {
      const r = await pool.query<{ login: string; levels: string[] }>(
        `SELECT current_user::text AS login,
                array(SELECT l FROM unnest($1::text[]) l
                      -- A database no workspace was made in has no level roles: no level, no error.
                      WHERE CASE WHEN EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'evidesk_' || l)
                                 THEN pg_has_role(current_user, 'evidesk_' || l, 'MEMBER') ELSE false END) AS levels`,
        [ACCESS_LEVELS],
      );
      const row = r.rows[0];
      return new PgStore(url, pool, row?.login ?? '', (row?.levels ?? []) as AccessLevel[], options.retry ?? DEFAULT_RETRY);
    } catch (e) {
      await pool.end();
      throw storeError(e, { login: loginOf(url), level: null }, 'connect to the shared workspace');
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Listens for rows committed by anyone (on a connection of its own; close the feed when done). */
  async changes(options: ChangeFeedOptions = {}): Promise<PgChangeFeed> {
    try {
      return await PgChangeFeed.listen(this.url, options);
    } catch (e) {
      throw storeError(e, this.who, 'listen for changes');
    }
  }

  /**
   * One transaction, tried again after a lost connection or a serialization failure (never after a
   * refusal) and never applied twice (pg-resilience.ts); PostgreSQL's refusals come out as coded
   * AppErrors naming the level.
   */
  private async tx<T>(operation: string, fn: (c: pg.PoolClient) => Promise<T>, retry: RetryPolicy = this.retry): Promise<T> {
    return runTransaction(this.pool, this.who, operation, fn, retry);
  }

  /**
   * Adds a source with its snapshot streamed in chunks. The same bytes added twice, even at the
   * same moment by two members, are one source: the second gets the first's id (created false).
   * Given a function that opens the bytes afresh, a lost connection is retried like any write
   * (a retry after a commit that did happen finds the source and returns it, created false); a
   * stream can be read once, so given one, a lost connection is reported at once.
   */
  async addSource(src: PgNewSource, bytes: AsyncIterable<Uint8Array> | (() => AsyncIterable<Uint8Array>), now = new Date().toISOString()): Promise<{ id: number; created: boolean }> {
    const open = typeof bytes === 'function' ? bytes : () => bytes;
    const retry = typeof bytes === 'function' ? this.retry : { ...this.retry, attempts: 1 };
    return this.tx('add a source', async (c) => {
      await writeSnapshot(c, src.sha256, src.byteSize, open(), now);
      const inserted = await c.query<Record<string, unknown> & { id: number }>(
        `INSERT INTO sources (sha256, kind, file_name, byte_size, page_count, title, extraction_method, warnings, predecessor_id, snapshot, added_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (sha256) DO NOTHING RETURNING *`,
        [src.sha256, src.kind, src.fileName, src.byteSize, src.pageCount, src.title, src.extractionMethod, JSON.stringify(src.warnings ?? []), src.predecessorId ?? null, snapshotName(src.sha256), now],
      );
      const row = inserted.rows[0];
      if (!row) {
        const existing = await c.query<{ id: number }>('SELECT id FROM sources WHERE sha256 = $1', [src.sha256]);
        return { id: existing.rows[0]?.id ?? 0, created: false };
      }
      await c.query(
        `INSERT INTO segments (source_id, ordinal, locator, page, text, page_label, paragraph, line_start, line_end, heading_path, block_type, item_starts)
         SELECT $1, t.* FROM unnest($2::integer[], $3::text[], $4::integer[], $5::text[], $6::text[], $7::integer[], $8::integer[], $9::integer[], $10::text[], $11::text[], $12::text[])
           AS t(ordinal, locator, page, text, page_label, paragraph, line_start, line_end, heading_path, block_type, item_starts)`,
        [
          row.id,
          src.segments.map((_, i) => i),
          src.segments.map((s) => JSON.stringify(s.locator)),
          src.segments.map((s) => s.page ?? null),
          src.segments.map((s) => s.text),
          src.segments.map((s) => s.pageLabel ?? null),
          src.segments.map((s) => s.paragraph ?? null),
          src.segments.map((s) => s.lineStart ?? null),
          src.segments.map((s) => s.lineEnd ?? null),
          src.segments.map((s) => s.headingPath ?? null),
          src.segments.map((s) => s.blockType ?? null),
          src.segments.map((s) => s.itemStarts ?? null),
        ],
      );
      const entries: { action: string; table: ChainTable; row: Record<string, unknown>; payload?: unknown }[] = [
        { action: src.predecessorId ? 'source.version' : 'source.add', table: 'sources', row, payload: { sha256: src.sha256, predecessorId: src.predecessorId ?? null, restricted: false } },
      ];
      if (src.path) {
        const p = await c.query<Record<string, unknown>>(
          'INSERT INTO source_paths (source_id, path, size, mtime_ms, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING *',
          [row.id, src.path.path, src.path.size, src.path.mtimeMs, now],
        );
        if (p.rows[0]) entries.push({ action: ROW_APPEND, table: 'source_paths', row: p.rows[0] });
      }
      await appendEntries(c, entries, now);
      return { id: row.id, created: true };
    }, retry);
  }

  /** A source's snapshot, chunk by chunk (the connection is held until the last chunk is read). */
  async *snapshot(sha256: string): AsyncGenerator<Buffer> {
    yield* streamOn(this.pool, this.who, 'read a snapshot', (c) => readSnapshot(c, sha256));
  }

  /** Opens an agent session (its answer and session rows) in a project this agent belongs to. */
  async openSession(s: { sessionKey: string; projectKey: string; userId: string; question?: string }, now = new Date().toISOString()): Promise<PgSession> {
    return this.tx('open an agent session', async (c) => {
      const answer = (
        await c.query<Record<string, unknown> & { id: number }>(
          `INSERT INTO answers (project_key, format, question, answer_text, origin, created_at) VALUES ($1, 'agent-session', $2, '', 'agent', $3) RETURNING *`,
          [s.projectKey, s.question ?? null, now],
        )
      ).rows[0];
      if (!answer) throw new Error('the answer row was not returned');
      const session = (
        await c.query<Record<string, unknown> & { id: number }>(
          'INSERT INTO agent_sessions (session_key, answer_id, agent_id, user_id, project_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
          [s.sessionKey, answer.id, this.who.login, s.userId, s.projectKey, now],
        )
      ).rows[0];
      if (!session) throw new Error('the session row was not returned');
      await appendEntries(c, [{ action: ROW_APPEND, table: 'answers', row: answer }, { action: ROW_APPEND, table: 'agent_sessions', row: session }], now);
      return { sessionId: session.id, answerId: answer.id, projectKey: s.projectKey };
    });
  }

  /** Adds a citation to the agent's own session, with its context row. */
  async addCitation(n: PgNewCitation, now = new Date().toISOString()): Promise<{ id: number }> {
    return this.tx('add a citation', async (c) => {
      // Citations into one answer at once take turns, so each gets the next ordinal.
      // The lock and the session in one round trip (the session row never changes).
      const session = (
        await c.query<{ id: number | null; user_id: string; project_id: string }>(
          'SELECT s.id, s.user_id, s.project_id FROM pg_advisory_xact_lock($1, $2) LEFT JOIN agent_sessions s ON s.answer_id = $2',
          [CITATION_LOCK_CLASS, n.answerId],
        )
      ).rows.find((r) => r.id !== null);
      const citation = (
        await c.query<Record<string, unknown> & { id: number }>(
          `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, source_id, claimed_locator, method, created_at)
           VALUES ($1, (SELECT count(*) FROM citations WHERE answer_id = $1), $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
          [n.answerId, n.marker, n.claim, n.quote, n.sourceId, JSON.stringify(n.locator), n.method ?? null, now],
        )
      ).rows[0];
      if (!citation) throw new Error('the citation row was not returned');
      const entries: { action: string; table: ChainTable; row: Record<string, unknown> }[] = [{ action: ROW_APPEND, table: 'citations', row: citation }];
      if (session) {
        const context = (
          await c.query<Record<string, unknown>>(
            `INSERT INTO citation_contexts (citation_id, session_id, agent_id, user_id, project_id, details, created_at) VALUES ($1, $2, $3, $4, $5, '{}', $6) RETURNING *`,
            [citation.id, session.id, this.who.login, session.user_id, session.project_id, now],
          )
        ).rows[0];
        if (context) entries.push({ action: ROW_APPEND, table: 'citation_contexts', row: context });
      }
      await appendEntries(c, entries, now);
      return { id: citation.id };
    });
  }

  /** Adds a reviewer's decision on a citation, superseding the one in force. */
  async addDecision(d: { citationId: number; decision: Decision; note?: string | null }, now = new Date().toISOString()): Promise<{ id: number }> {
    return this.tx('record a review decision', async (c) => {
      // Two reviewers deciding on one citation at once take turns, so each decision supersedes
      // the one before it (the line of decisions never forks); other citations are not held up.
      await c.query('SELECT pg_advisory_xact_lock($1, $2)', [DECISION_LOCK_CLASS, d.citationId]);
      const row = (
        await c.query<Record<string, unknown> & { id: number }>(
          `INSERT INTO review_decisions (citation_id, decision, note, supersedes_id, created_at, reviewer)
           VALUES ($1, $2, $3, (SELECT max(id) FROM review_decisions WHERE citation_id = $1), $4, $5) RETURNING *`,
          [d.citationId, d.decision, d.note ?? null, now, this.who.login],
        )
      ).rows[0];
      if (!row) throw new Error('the decision row was not returned');
      await appendEntries(c, [{ action: ROW_APPEND, table: 'review_decisions', row }], now);
      return { id: row.id };
    });
  }

  /** The citations of a project this member may see (row-level security filters the rest). */
  async citationsOfProject(projectKey: string): Promise<PgCitationRow[]> {
    return this.tx('read the citations of a project', async (c) => {
      const r = await c.query<PgCitationRow>(
        `SELECT c.* FROM citations c JOIN answers a ON a.id = c.answer_id WHERE a.project_key = $1 ORDER BY c.id`,
        [projectKey],
      );
      return r.rows;
    });
  }

  /**
   * Walks the audit chain (auditors and admins may read it), its end held to audit_head, to
   * `anchor` and to `seen` (the head this member saw last, from its own head file).
   */
  async verifyChain(anchor?: AuditHead, seen?: AuditHead): Promise<PgChainReport> {
    // One snapshot for the whole walk: entries and rows as of the same moment.
    return this.tx('verify the audit chain', async (c) => {
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      return verifyPgChain(c, anchor, seen);
    });
  }

  /** The chain's head as audit_head records it (every level may read it), or undefined before migration 13. */
  async recordedHead(): Promise<RecordedHead | undefined> {
    return this.tx('read the audit chain\'s head', (c) => recordedHead(c));
  }
}
