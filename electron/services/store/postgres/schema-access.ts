/**
 * PostgreSQL migration 2: access levels enforced by the database itself (issue 13, Done-when 3).
 * Four group roles (cluster-wide, so created once and shared by every workspace database of a
 * server); members are login roles granted one of them and listed per project in project_members.
 * Table privileges say what a level may do at all; row-level security says in which projects.
 * The owner that runs migrations owns the tables and is not subject to RLS (nor meant to be used
 * by the app). Helper functions are SECURITY DEFINER with a fixed search_path: policies call them
 * with current_user, so they never need to read project_members through RLS themselves.
 */
import type { ChainTable } from '../../../../shared/audit/canonical.ts';
import { CHAIN_LINK_SQLSTATE } from './schema-evidence.ts';

export const ACCESS_LEVELS = ['agent', 'reviewer', 'auditor', 'admin'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** The group role of an access level. */
export function groupRole(level: AccessLevel): string {
  return `evidesk_${level}`;
}

/** The chain tables migration 2 had (frozen: its SQL must stay as shipped; migration 4 adds the rest). */
export const PG_V2_CHAIN_TABLES = ['sources', 'source_paths', 'answers', 'unknown_sources', 'custom_sources', 'agent_sessions', 'citations', 'citation_contexts', 'review_decisions'] as const satisfies readonly ChainTable[];

/** The advisory lock every audit append takes (held to the end of its transaction). */
export const AUDIT_LOCK_KEY = 0x45764465736b01;

const createRoles = ACCESS_LEVELS.map(
  (l) => `
        BEGIN
          CREATE ROLE ${groupRole(l)} NOLOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; -- made by another database's migration
        END;`,
).join('');

const DEFINER = 'SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp';

/**
 * The audit append function, for the chain tables it accepts entries for: made by migration 2,
 * replaced by migration 4 when the chain covers more tables (same signature, same grants).
 */
export function auditAppendSql(create: 'CREATE FUNCTION' | 'CREATE OR REPLACE FUNCTION', tables: readonly ChainTable[]): string {
  return `      -- Appends one entry the client hashed (shared/audit/canonical.ts); refuses one that does not
      -- follow the head. Writers may append but not read the log: only auditors and admins read it.
      ${create} evidesk_audit_append(p_seq bigint, p_prev text, p_action text, p_payload text, p_created_at text,
                                           p_hash text, p_table text, p_row_id bigint, p_row_hash text) RETURNS bigint
      LANGUAGE plpgsql ${DEFINER} AS $fn$
      DECLARE
        head record;
        row_there boolean;
        new_id bigint;
      BEGIN
        SELECT * INTO head FROM evidesk_audit_head();
        IF p_seq <> head.seq + 1 OR p_prev <> head.hash THEN
          RAISE EXCEPTION 'audit entry % does not follow the chain head (entry %)', p_seq, head.seq USING ERRCODE = '${CHAIN_LINK_SQLSTATE}';
        END IF;
        -- An entry names a row of a covered table that exists (written in this transaction): no
        -- member can claim a row id ahead of its writer and block it.
        IF p_table IS NOT NULL THEN
          IF NOT (p_table = ANY (ARRAY[${tables.map((t) => `'${t}'`).join(', ')}])) THEN
            RAISE EXCEPTION 'audit entry % names %, which the chain does not cover', p_seq, p_table USING ERRCODE = '${CHAIN_LINK_SQLSTATE}';
          END IF;
          EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE id = $1)', p_table) INTO row_there USING p_row_id;
          IF NOT row_there THEN
            RAISE EXCEPTION 'audit entry % records % row %, which does not exist', p_seq, p_table, p_row_id USING ERRCODE = '${CHAIN_LINK_SQLSTATE}';
          END IF;
        END IF;
        INSERT INTO audit_log (action, payload, created_at, prev_hash, hash, hash_version, seq, table_name, row_id, row_hash)
          VALUES (p_action, p_payload, p_created_at, p_prev, p_hash, 2, p_seq, p_table, p_row_id, p_row_hash)
          RETURNING id INTO new_id;
        RETURN new_id;
      END
      $fn$;

`;
}

export const ACCESS_SCHEMA_SQL = `
      DO $do$ BEGIN ${createRoles}
      END $do$;

      CREATE FUNCTION evidesk_sees_all(who name) RETURNS boolean LANGUAGE sql STABLE ${DEFINER} AS $fn$
        SELECT pg_has_role(who, 'evidesk_auditor', 'MEMBER') OR pg_has_role(who, 'evidesk_admin', 'MEMBER')
      $fn$;
      CREATE FUNCTION evidesk_member_of(project text, who name, levels text[]) RETURNS boolean LANGUAGE sql STABLE ${DEFINER} AS $fn$
        SELECT EXISTS (SELECT 1 FROM project_members m WHERE m.project_key = project AND m.member = who AND m.role = ANY (levels))
      $fn$;
      CREATE FUNCTION evidesk_answer_project(answer bigint) RETURNS text LANGUAGE sql STABLE ${DEFINER} AS $fn$
        SELECT project_key FROM answers WHERE id = answer
      $fn$;
      CREATE FUNCTION evidesk_citation_project(citation bigint) RETURNS text LANGUAGE sql STABLE ${DEFINER} AS $fn$
        SELECT a.project_key FROM citations c JOIN answers a ON a.id = c.answer_id WHERE c.id = citation
      $fn$;
      CREATE FUNCTION evidesk_session_agent(answer bigint) RETURNS text LANGUAGE sql STABLE ${DEFINER} AS $fn$
        SELECT agent_id FROM agent_sessions WHERE answer_id = answer
      $fn$;

      -- The chain's head, read under the audit lock; the lock is held until the transaction ends,
      -- so the next appender reads this one's entries (each statement of a volatile function takes
      -- a new snapshot, after the lock is granted).
      CREATE FUNCTION evidesk_audit_head(OUT seq bigint, OUT hash text) LANGUAGE plpgsql ${DEFINER} AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock(${AUDIT_LOCK_KEY});
        SELECT coalesce(a.seq, (SELECT count(*) FROM audit_log)), a.hash INTO seq, hash FROM audit_log a ORDER BY a.id DESC LIMIT 1;
        IF NOT FOUND THEN
          seq := 0;
          hash := repeat('0', 64);
        END IF;
      END
      $fn$;

${auditAppendSql('CREATE FUNCTION', PG_V2_CHAIN_TABLES)}      REVOKE ALL ON FUNCTION evidesk_audit_head(), evidesk_audit_append(bigint, text, text, text, text, text, text, bigint, text) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION evidesk_audit_head(), evidesk_audit_append(bigint, text, text, text, text, text, text, bigint, text)
        TO evidesk_agent, evidesk_reviewer, evidesk_admin;

      GRANT USAGE ON SCHEMA public TO evidesk_agent, evidesk_reviewer, evidesk_auditor, evidesk_admin;
      -- Auditors and admins read everything (audit log included); nobody but the owner reads migrations' bookkeeping.
      GRANT SELECT ON projects, project_members, settings, blobs, blob_chunks, sources, source_paths, segments, answers,
        unknown_sources, custom_sources, agent_sessions, citations, citation_contexts, review_decisions, audit_log
        TO evidesk_auditor, evidesk_admin;
      -- Agents and reviewers read the shared pool of sources and, through RLS, their projects' work.
      GRANT SELECT ON projects, project_members, settings, blobs, blob_chunks, sources, source_paths, segments, answers,
        unknown_sources, custom_sources, agent_sessions, citations, citation_contexts, review_decisions
        TO evidesk_agent, evidesk_reviewer;
      GRANT INSERT ON answers, agent_sessions, citations, citation_contexts, unknown_sources, custom_sources TO evidesk_agent;
      GRANT INSERT ON review_decisions TO evidesk_reviewer;
      GRANT INSERT ON source_paths TO evidesk_agent, evidesk_reviewer;
      GRANT UPDATE (size, mtime_ms, last_seen_at, current) ON source_paths TO evidesk_agent, evidesk_reviewer;
      GRANT INSERT, UPDATE, DELETE ON projects, project_members, settings TO evidesk_admin;
      GRANT INSERT ON blobs, blob_chunks, sources, segments, source_paths TO evidesk_admin;
      GRANT UPDATE (restricted) ON sources TO evidesk_admin;
      GRANT UPDATE (size, mtime_ms, last_seen_at, current) ON source_paths TO evidesk_admin;

      ALTER TABLE projects ENABLE ROW LEVEL SECURITY;
      CREATE POLICY projects_read ON projects FOR SELECT
        USING (evidesk_sees_all(current_user) OR evidesk_member_of(key, current_user, '{agent,reviewer,auditor,admin}'));
      CREATE POLICY projects_admin ON projects FOR ALL TO evidesk_admin USING (true) WITH CHECK (true);

      ALTER TABLE project_members ENABLE ROW LEVEL SECURITY;
      CREATE POLICY project_members_read ON project_members FOR SELECT
        USING (evidesk_sees_all(current_user) OR member = current_user);
      CREATE POLICY project_members_admin ON project_members FOR ALL TO evidesk_admin USING (true) WITH CHECK (true);

      ALTER TABLE source_paths ENABLE ROW LEVEL SECURITY;
      CREATE POLICY source_paths_read ON source_paths FOR SELECT USING (evidesk_sees_all(current_user) OR member = current_user);
      CREATE POLICY source_paths_own ON source_paths FOR INSERT WITH CHECK (member = current_user);
      CREATE POLICY source_paths_touch ON source_paths FOR UPDATE USING (member = current_user) WITH CHECK (member = current_user);

      ALTER TABLE answers ENABLE ROW LEVEL SECURITY;
      CREATE POLICY answers_read ON answers FOR SELECT
        USING (evidesk_sees_all(current_user) OR evidesk_member_of(project_key, current_user, '{agent,reviewer}'));
      CREATE POLICY answers_agent ON answers FOR INSERT TO evidesk_agent
        WITH CHECK (evidesk_member_of(project_key, current_user, '{agent}'));

      ALTER TABLE agent_sessions ENABLE ROW LEVEL SECURITY;
      CREATE POLICY agent_sessions_read ON agent_sessions FOR SELECT
        USING (evidesk_sees_all(current_user) OR evidesk_member_of(project_id, current_user, '{agent,reviewer}'));
      CREATE POLICY agent_sessions_own ON agent_sessions FOR INSERT TO evidesk_agent
        WITH CHECK (agent_id = current_user AND evidesk_member_of(project_id, current_user, '{agent}')
                    AND evidesk_answer_project(answer_id) = project_id);

      ALTER TABLE citations ENABLE ROW LEVEL SECURITY;
      CREATE POLICY citations_read ON citations FOR SELECT
        USING (evidesk_sees_all(current_user) OR evidesk_member_of(evidesk_answer_project(answer_id), current_user, '{agent,reviewer}'));
      CREATE POLICY citations_own_session ON citations FOR INSERT TO evidesk_agent
        WITH CHECK (evidesk_session_agent(answer_id) = current_user
                    AND evidesk_member_of(evidesk_answer_project(answer_id), current_user, '{agent}'));

      ALTER TABLE citation_contexts ENABLE ROW LEVEL SECURITY;
      CREATE POLICY citation_contexts_read ON citation_contexts FOR SELECT
        USING (evidesk_sees_all(current_user) OR evidesk_member_of(project_id, current_user, '{agent,reviewer}'));
      CREATE POLICY citation_contexts_own ON citation_contexts FOR INSERT TO evidesk_agent
        WITH CHECK (agent_id = current_user AND evidesk_member_of(project_id, current_user, '{agent}')
                    AND evidesk_citation_project(citation_id) = project_id);

      ALTER TABLE review_decisions ENABLE ROW LEVEL SECURITY;
      CREATE POLICY review_decisions_read ON review_decisions FOR SELECT
        USING (evidesk_sees_all(current_user) OR evidesk_member_of(evidesk_citation_project(citation_id), current_user, '{agent,reviewer}'));
      CREATE POLICY review_decisions_reviewer ON review_decisions FOR INSERT TO evidesk_reviewer
        WITH CHECK (reviewer = current_user AND evidesk_member_of(evidesk_citation_project(citation_id), current_user, '{reviewer}'));
`;
