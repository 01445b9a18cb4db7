/**
 * PostgreSQL migration 8, speed (issue 13, Done-when 6): what a team's reads and cites were
 * waiting on.
 * - Superseded citations are indexed, as SQLite's migration 10 indexes them: "the citations in
 *   force" (NOT EXISTS a citation superseding this one) was a scan of every citation, each row
 *   through row-level security, per citation read (0.8–1.4 s for an answer of 230 as a reviewer).
 * - The read policies ask "is this member an auditor or admin" and "which projects is it in" once
 *   per query (an InitPlan and a hashed subplan), and a row of a project's work is read as its
 *   parent row is, instead of calling two or three SECURITY DEFINER functions for every row. What
 *   each level may read is unchanged (postgres-roles.test.ts).
 * - The segments' full-text GIN index with a short pending list: every search scanned the whole
 *   list, which grew to 4 MB until the next vacuum.
 * - The audit entries of one write are appended in one call, which also returns the transaction's
 *   id (read before COMMIT, so a lost COMMIT reply can be settled): the chain's lock is held over
 *   fewer round trips, and the many writers that take turns on it wait less.
 */
import { ACCESS_LEVELS } from './schema-access.ts';

const DEFINER = 'SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp';
const MEMBER_READERS = `'{agent,reviewer}'`;
const SEES_ALL = '(SELECT evidesk_sees_all(current_user))';

const inProjects = (project: string, levels: string) => `${project} IN (SELECT evidesk_projects_of(current_user, ${levels}))`;

/**
 * The read policies that asked, per row, whether the member is in the row's project:
 * [table, who may read a row]. A row of a project's work now reads as its parent row does (a
 * citation as its answer, a result as its run): the parent's own policy answers, in the same
 * query, without a SECURITY DEFINER call (and its search_path switch) per row.
 */
const PROJECT_READS: readonly (readonly [table: string, rule: string])[] = [
  ['answers', inProjects('project_key', MEMBER_READERS)],
  ['agent_sessions', inProjects('project_id', MEMBER_READERS)],
  ['citation_contexts', inProjects('project_id', MEMBER_READERS)],
  ['citations', 'EXISTS (SELECT 1 FROM answers a WHERE a.id = answer_id)'],
  ['verification_runs', 'EXISTS (SELECT 1 FROM answers a WHERE a.id = answer_id)'],
  ['review_decisions', 'EXISTS (SELECT 1 FROM citations c WHERE c.id = citation_id)'],
  ['citation_results', 'EXISTS (SELECT 1 FROM verification_runs r WHERE r.id = run_id)'],
  ['verification_run_ends', 'EXISTS (SELECT 1 FROM verification_runs r WHERE r.id = run_id)'],
  ['judge_opinions', 'EXISTS (SELECT 1 FROM citation_results r WHERE r.id = result_id)'],
  ['closest_passages', 'EXISTS (SELECT 1 FROM citation_results r WHERE r.id = result_id)'],
];

const projectReads = PROJECT_READS.map(([table, rule]) => `
      ALTER POLICY ${table}_read ON ${table} USING (${SEES_ALL} OR ${rule});`).join('');

export const SPEED_SCHEMA_SQL = `
      CREATE INDEX citations_supersedes ON citations(supersedes_id) WHERE supersedes_id IS NOT NULL;

      -- The full-text index keeps a short pending list: every search reads the whole list, which
      -- at the default 4 MB grew until a vacuum came (7 ms of a 7.4 ms search at 10,000
      -- segments); at 256 kB an ingest merges it into the index as it goes, in bulk (with no list
      -- at all, an ingest took seven times as long). The trigram index, five times the entries
      -- and read only to place a quote, keeps the default: its merges would slow every ingest.
      ALTER INDEX segments_tsv SET (gin_pending_list_limit = 256);
      SELECT gin_clean_pending_list('segments_tsv'::regclass), gin_clean_pending_list('segments_trgm'::regclass);

      -- The projects a member holds one of the levels in (the policies' one question per query).
      CREATE FUNCTION evidesk_projects_of(who name, levels text[]) RETURNS SETOF text LANGUAGE sql STABLE ROWS 20 ${DEFINER} AS $fn$
        SELECT project_key FROM project_members WHERE member = who AND role = ANY (levels)
      $fn$;
      REVOKE ALL ON FUNCTION evidesk_projects_of(name, text[]) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION evidesk_projects_of(name, text[]) TO evidesk_agent, evidesk_reviewer, evidesk_auditor, evidesk_admin;
${projectReads}
      ALTER POLICY projects_read ON projects USING (${SEES_ALL} OR ${inProjects('key', `'{${ACCESS_LEVELS.join(',')}}'`)});
      ALTER POLICY project_members_read ON project_members USING (${SEES_ALL} OR member = current_user);
      ALTER POLICY source_paths_read ON source_paths USING (${SEES_ALL} OR member = current_user);
      ALTER POLICY library_changes_read ON library_changes
        USING (subject = 'source' OR ${SEES_ALL} OR EXISTS (SELECT 1 FROM answers a WHERE a.id = subject_id));

      -- A write's entries in order, each checked by evidesk_audit_append as before; returns the
      -- transaction's id for the writer to settle a COMMIT whose reply is lost.
      CREATE FUNCTION evidesk_audit_append_all(p_seq bigint[], p_prev text[], p_action text[], p_payload text[], p_created_at text,
                                               p_hash text[], p_table text[], p_row_id bigint[], p_row_hash text[]) RETURNS text
      LANGUAGE plpgsql ${DEFINER} AS $fn$
      BEGIN
        FOR i IN 1 .. coalesce(cardinality(p_seq), 0) LOOP
          PERFORM evidesk_audit_append(p_seq[i], p_prev[i], p_action[i], p_payload[i], p_created_at, p_hash[i], p_table[i], p_row_id[i], p_row_hash[i]);
        END LOOP;
        RETURN pg_current_xact_id_if_assigned()::text;
      END
      $fn$;
      REVOKE ALL ON FUNCTION evidesk_audit_append_all(bigint[], text[], text[], text[], text, text[], text[], bigint[], text[]) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION evidesk_audit_append_all(bigint[], text[], text[], text[], text, text[], text[], bigint[], text[])
        TO evidesk_agent, evidesk_reviewer, evidesk_admin;
`;
