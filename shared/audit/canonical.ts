/**
 * The canonical encodings the audit chain hashes (DESIGN.md §3, §11). Canonical JSON: object keys
 * sorted, no whitespace, strings escaped as JSON escapes them, so two different values never
 * encode alike (no ambiguous joins). Pure: the caller passes the digest (SHA-256, hex).
 */

/** SHA-256 of the UTF-8 bytes of `text`, as lowercase hex. */
export type Digest = (text: string) => string;

/** The hash before the first entry. */
export const AUDIT_GENESIS = '0'.repeat(64);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON with sorted keys at every depth; refuses values JSON cannot carry exactly. */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`canonicalJson: ${value} has no JSON form`);
      return JSON.stringify(value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
    }
    default:
      throw new Error(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

/**
 * The evidence tables the chain covers and, for each, the columns its row hash covers. Fixed
 * lists, never `SELECT *`: a later migration that adds a column must not change the hash of rows
 * already recorded. Mutable bookkeeping is left out (a source's restricted flag, recorded by its
 * own audit entries; a path's last stat and current flag, which health checks refresh).
 */
export const CHAIN_TABLES = {
  sources: ['id', 'sha256', 'kind', 'file_name', 'byte_size', 'page_count', 'title', 'extraction_method', 'warnings', 'predecessor_id', 'snapshot', 'added_at'],
  source_paths: ['id', 'source_id', 'path', 'first_seen_at'],
  answers: ['id', 'format', 'question', 'answer_text', 'origin', 'raw', 'created_at'],
  unknown_sources: ['id', 'reference'],
  citations: [
    'id',
    'answer_id',
    'ordinal',
    'marker',
    'claim',
    'quote',
    'context',
    'source_id',
    'unknown_source_id',
    'claimed_locator',
    'method',
    'confidence',
    'supersedes_id',
    'created_at',
  ],
  verification_runs: ['id', 'answer_id', 'verifier', 'summary', 'risk_flags', 'created_at'],
  citation_results: [
    'id',
    'run_id',
    'citation_id',
    'status',
    'verdict',
    'score',
    'confidence',
    'source_id',
    'segment_id',
    'start_offset',
    'end_segment_id',
    'end_offset',
    'first_end',
    'last_start',
    'page',
    'page_label',
    'match_method',
    'matched_text',
    'quote',
    'prefix',
    'suffix',
    'notes',
  ],
  review_decisions: ['id', 'citation_id', 'decision', 'note', 'supersedes_id', 'created_at'],
  source_properties: ['id', 'source_id', 'authors', 'published', 'created_at'],
  judge_opinions: ['id', 'result_id', 'model', 'outcome', 'verdict', 'reason', 'created_at'],
  closest_passages: ['id', 'result_id', 'source_id', 'segment_id', 'start_offset', 'end_offset', 'score', 'text', 'created_at'],
  // Issue 11 (migration 10): agent sessions, custom sources and each agent citation's context.
  agent_sessions: ['id', 'session_key', 'answer_id', 'agent_id', 'user_id', 'project_id', 'created_at'],
  custom_sources: ['id', 'identifier', 'description', 'kind', 'created_at'],
  citation_contexts: ['id', 'citation_id', 'session_id', 'agent_id', 'user_id', 'project_id', 'custom_source_id', 'details', 'created_at'],
  web_fetches: ['id', 'source_id', 'url', 'final_url', 'redirects', 'http_status', 'content_type', 'byte_size', 'sha256', 'fetched_at', 'outcome'],
  // Issue 12 (migration 15): answers renamed, answers and sources removed from view (hidden, never deleted).
  library_changes: ['id', 'subject', 'subject_id', 'action', 'value', 'created_at'],
  // Issue 16 (migration 16): the end of a run verified in batches.
  verification_run_ends: ['id', 'run_id', 'state', 'done', 'summary', 'risk_flags', 'created_at'],
} as const satisfies Record<string, readonly string[]>;

export type ChainTable = keyof typeof CHAIN_TABLES;

export const CHAIN_TABLE_NAMES = Object.keys(CHAIN_TABLES) as ChainTable[];

export function isChainTable(name: string): name is ChainTable {
  return Object.hasOwn(CHAIN_TABLES, name);
}

/** What a row of each table is called in a sentence. */
export const TABLE_NOUN: Record<ChainTable, string> = {
  sources: 'Source',
  source_paths: 'Known path',
  answers: 'Answer',
  unknown_sources: 'Unknown-source reference',
  citations: 'Citation',
  verification_runs: 'Verification run',
  citation_results: 'Citation result',
  review_decisions: 'Review decision',
  source_properties: 'Source properties',
  judge_opinions: 'Model judge opinion',
  closest_passages: 'Closest passage',
  agent_sessions: 'Agent session',
  custom_sources: 'Custom source',
  citation_contexts: 'Citation context',
  web_fetches: 'Web fetch record',
  library_changes: 'Library change',
  verification_run_ends: 'End of a verification run',
};

/**
 * Columns a later migration added to a covered table, hashed only when they hold a value: a row
 * written before them (all NULL there) keeps the hash it was recorded with, and a value written,
 * changed or removed afterwards changes the hash like any covered column.
 */
export const CHAIN_LATER_COLUMNS: Partial<Record<ChainTable, readonly string[]>> = {
  // Migration 8: who decided, and which decision an undo takes back.
  review_decisions: ['reviewer', 'undoes_id'],
  // Migration 16: how many citations a run verified in batches set out to verify.
  verification_runs: ['planned'],
};

/** SHA-256 of a row's canonical encoding: the table's name and its covered columns. */
export function rowHash(table: ChainTable, row: Record<string, unknown>, digest: Digest): string {
  const picked: Record<string, unknown> = {};
  for (const c of CHAIN_TABLES[table]) picked[c] = row[c] ?? null;
  for (const c of CHAIN_LATER_COLUMNS[table] ?? []) if (row[c] !== undefined && row[c] !== null) picked[c] = row[c];
  return digest(canonicalJson({ row: picked, table }));
}

/** The fields of an audit entry its own hash covers (hash version 2). */
export interface EntryFields {
  seq: number;
  prevHash: string;
  action: string;
  table: string | null;
  rowId: number | null;
  rowHash: string | null;
  /** The stored JSON text of the payload. */
  payload: string;
  createdAt: string;
}

export function entryHash(e: EntryFields, digest: Digest): string {
  return digest(
    canonicalJson({
      v: 2,
      seq: e.seq,
      prev: e.prevHash,
      action: e.action,
      table: e.table,
      rowId: e.rowId,
      rowHash: e.rowHash,
      payload: e.payload,
      createdAt: e.createdAt,
    }),
  );
}

/** Hash version 1 (migration 3, kept so old rows still verify): the fields joined as they are. */
export function legacyEntryHash(prevHash: string, action: string, payload: string, createdAt: string, digest: Digest): string {
  return digest(prevHash + action + payload + createdAt);
}
