/**
 * PostgreSQL migration 10: reviewers import answers (issue 13). Importing an answer file is a
 * reviewer's work on the desk: the answer, its citations and the "unknown source" records of
 * references no source matches, in a project the reviewer belongs to as a reviewer. An agent
 * session's citations stay the agent's own (migration 2): a reviewer cannot add to a session.
 */
export const IMPORTS_SCHEMA_SQL = `
      GRANT INSERT ON answers, citations, unknown_sources TO evidesk_reviewer;

      CREATE POLICY answers_reviewer_import ON answers FOR INSERT TO evidesk_reviewer
        WITH CHECK (evidesk_member_of(project_key, current_user, '{reviewer}'));
      CREATE POLICY citations_reviewer_import ON citations FOR INSERT TO evidesk_reviewer
        WITH CHECK (evidesk_session_agent(answer_id) IS NULL
                    AND evidesk_member_of(evidesk_answer_project(answer_id), current_user, '{reviewer}'));
`;
