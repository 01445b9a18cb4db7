/**
 * What a change of the live feed is about (issue 13): a notification names a table and an id only,
 * since NOTIFY is not filtered by row-level security. The member reads the row through its own
 * policies here: a row it may not see is not its news (null), and a visible citation, decision,
 * session or answer is told with the answer it belongs to, which an open app refreshes.
 */
import type { StoreChange } from './pg-changes.ts';
import { pgRead, type PgContext } from './pg-tx.ts';

export interface ChangeSubject {
  table: 'sources' | 'answers' | 'agent_sessions' | 'citations' | 'review_decisions' | 'library_changes';
  id: number;
  /** The answer the row belongs to (null for a source, and a source's library change). */
  answerId: number | null;
  /** A source restricted or lifted (the row changed), rather than a new row. */
  update?: 'restricted';
}

/** The answer id of each table's row, read as the member (RLS applies). */
const SUBJECT_SQL: Record<ChangeSubject['table'], string> = {
  sources: 'SELECT NULL::bigint AS answer_id FROM sources WHERE id = $1',
  answers: 'SELECT id AS answer_id FROM answers WHERE id = $1',
  agent_sessions: 'SELECT answer_id FROM agent_sessions WHERE id = $1',
  citations: 'SELECT answer_id FROM citations WHERE id = $1',
  review_decisions: 'SELECT c.answer_id FROM review_decisions r JOIN citations c ON c.id = r.citation_id WHERE r.id = $1',
  // An answer renamed or removed, a source removed or restored (its notification comes from migration 4).
  library_changes: "SELECT CASE WHEN subject = 'answer' THEN subject_id END AS answer_id FROM library_changes WHERE id = $1",
};

export function isSubjectTable(table: string): table is ChangeSubject['table'] {
  return Object.hasOwn(SUBJECT_SQL, table);
}

/**
 * The change as this member sees it, or null when it may not see the row (another project's, or
 * a table its level cannot read). A refused read counts as not visible: the feed is not the place
 * to report a level's limits.
 */
export async function changeSubject(ctx: PgContext, change: StoreChange): Promise<ChangeSubject | null> {
  if (!isSubjectTable(change.table)) return null;
  let rows: { answer_id: number | null }[];
  try {
    rows = await pgRead<{ answer_id: number | null }>(ctx, 'read a changed row', SUBJECT_SQL[change.table], [change.id]);
  } catch (e) {
    if ((e as { code?: string }).code === 'DATABASE_ROLE_REFUSED') return null;
    throw e;
  }
  const row = rows[0];
  if (!row) return null;
  return { table: change.table, id: change.id, answerId: row.answer_id === null ? null : Number(row.answer_id), ...(change.update ? { update: change.update } : {}) };
}
