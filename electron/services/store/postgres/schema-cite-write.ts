/**
 * PostgreSQL migration 15: a cite's rows written by one call (issue 13, Done-when 6). Before, a
 * cite was nine round trips (the session under its lock, the session's ledger, then one INSERT a
 * row, the chain append, COMMIT); with 8 agents each round trip is a wait on a busy machine, and
 * the last two were under the chain's lock. evidesk_cite takes the session's lock, makes the
 * session on first use and inserts the citation, its context, the run and the result (the rows
 * and columns pg-citations.ts wrote, in the same order), and returns them: the writer hashes them
 * (the tables' fixed column lists are in shared/audit) and sends the chain append with COMMIT in
 * one message, so the chain's lock is held for the append and the commit alone.
 *
 * The run's summary covers the session's citations in force, which the writer summarises
 * (shared/verification) from its copy of the session's ledger: the call names that copy by a
 * fingerprint (the count of the session's citations, then each citation in force with its newest
 * result), and a copy that is not the session's as it is now (another process cited into it, a
 * correction superseded one of its citations, a run re-verified it) writes nothing and returns the
 * ledger, for the writer to summarise and call again under the same lock.
 *
 * SECURITY INVOKER: every INSERT is the member's own, so row-level security and the table grants
 * decide as before (an auditor's cite is refused naming the table; an agent writes only its own
 * sessions in its projects).
 */
import { CHAIN_TABLE_NAMES } from '../../../../shared/audit/canonical.ts';
import { appendFunctionGrants, appendFunctionHead, ENTRY_HASH_SQL } from './schema-chain-append.ts';
import { CHAIN_LINK_SQLSTATE } from './schema-evidence.ts';

/** The first key of the per-session advisory lock a cite takes (the session key's hash is the second). */
export const CITE_SESSION_LOCK_CLASS = 0x45764467;

export const CITE_WRITE_SCHEMA_SQL = `
      CREATE FUNCTION evidesk_cite(p json, p_ledger text) RETURNS json LANGUAGE plpgsql AS $fn$
      DECLARE
        s agent_sessions;
        a answers;
        u unknown_sources;
        c citations;
        x citation_contexts;
        r verification_runs;
        res citation_results;
        n integer := 0;
        ledger json;
        seen text;
        unknown_id bigint;
      BEGIN
        PERFORM pg_advisory_xact_lock(${CITE_SESSION_LOCK_CLASS}, hashtext(p->>'session_key'));
        SELECT * INTO s FROM agent_sessions WHERE session_key = p->>'session_key';
        IF s.id IS NOT NULL THEN
          SELECT count(*)::int INTO n FROM citations WHERE answer_id = s.answer_id;
          -- The citations in force, each with its newest result (the ledger pg-citations.ts summarises).
          SELECT json_agg(l ORDER BY l.ordinal),
                 encode(sha256(convert_to(n::text || ';' || coalesce(string_agg(l.id::text || ':' || l.result_id::text, ',' ORDER BY l.ordinal), ''), 'UTF8')), 'hex')
            INTO ledger, seen
            FROM (SELECT k.id, k.ordinal, k.marker, k.claim, t.id AS result_id, t.status, t.verdict, t.confidence FROM citations k
                  JOIN citation_results t ON t.id = (SELECT max(id) FROM citation_results WHERE citation_id = k.id)
                  WHERE k.answer_id = s.answer_id AND NOT EXISTS (SELECT 1 FROM citations m WHERE m.supersedes_id = k.id)) l;
        END IF;
        IF seen IS DISTINCT FROM p_ledger THEN
          RETURN json_build_object('ledger', seen, 'count', n, 'rows', coalesce(ledger, '[]'::json));
        END IF;

        IF s.id IS NULL THEN
          INSERT INTO answers (project_key, format, question, answer_text, origin, raw, created_at)
            VALUES (p->>'project_id', p->>'format', p->>'question', p->>'answer_text', p->>'origin', NULL, p->>'now') RETURNING * INTO a;
          INSERT INTO agent_sessions (session_key, answer_id, agent_id, user_id, project_id, created_at)
            VALUES (p->>'session_key', a.id, p->>'agent_id', p->>'user_id', p->>'project_id', p->>'now') RETURNING * INTO s;
        END IF;
        IF p->>'source_id' IS NULL THEN
          INSERT INTO unknown_sources (reference) VALUES (p->>'unknown_reference') ON CONFLICT (reference) DO NOTHING RETURNING * INTO u;
          unknown_id := coalesce(u.id, (SELECT k.id FROM unknown_sources k WHERE k.reference = p->>'unknown_reference'));
        END IF;
        INSERT INTO citations (answer_id, ordinal, marker, claim, quote, context, source_id, unknown_source_id, claimed_locator, method, confidence, supersedes_id, created_at)
          VALUES (s.answer_id, n, (n + 1)::text, p->>'claim', p->>'quote', p->>'context', (p->>'source_id')::bigint, unknown_id, p->>'claimed_locator',
                  p->>'method', p->>'confidence', (p->>'supersedes_id')::bigint, p->>'now') RETURNING * INTO c;
        INSERT INTO citation_contexts (citation_id, session_id, agent_id, user_id, project_id, custom_source_id, details, created_at)
          VALUES (c.id, s.id, p->>'agent_id', s.user_id, s.project_id, (p->>'custom_source_id')::bigint, p->>'details', p->>'now') RETURNING * INTO x;
        INSERT INTO verification_runs (answer_id, verifier, summary, risk_flags, created_at, planned)
          VALUES (s.answer_id, p->>'verifier', p->>'summary', p->>'risk_flags', p->>'now', NULL) RETURNING * INTO r;
        INSERT INTO citation_results (run_id, citation_id, status, verdict, score, confidence, source_id, segment_id, start_offset,
             end_segment_id, end_offset, first_end, last_start, page, page_label, match_method, matched_text, quote, prefix, suffix, notes)
          SELECT r.id, c.id, t.status, t.verdict, t.score, t.confidence, t."sourceId", t."segmentId", t."startOffset", t."endSegmentId", t."endOffset",
                 t."firstEnd", t."lastStart", t.page, t."pageLabel", t."matchMethod", t."matchedText", t.quote, t.prefix, t.suffix, p->>'notes'
            FROM json_to_record(p->'result') AS t(status text, verdict text, score float8, confidence float8, "sourceId" bigint, "segmentId" bigint,
                 "startOffset" integer, "endSegmentId" bigint, "endOffset" integer, "firstEnd" integer, "lastStart" integer, page integer, "pageLabel" text,
                 "matchMethod" text, "matchedText" text, quote text, prefix text, suffix text)
          RETURNING * INTO res;
        RETURN json_build_object('xid', pg_current_xact_id()::text, 'answers', CASE WHEN a.id IS NULL THEN NULL ELSE row_to_json(a) END,
          'agent_sessions', CASE WHEN a.id IS NULL THEN NULL ELSE row_to_json(s) END, 'unknown_sources', CASE WHEN u.id IS NULL THEN NULL ELSE row_to_json(u) END,
          'citations', row_to_json(c), 'citation_contexts', row_to_json(x), 'verification_runs', row_to_json(r), 'citation_results', row_to_json(res));
      END
      $fn$;
      -- Every level may call it: what the member may write is the tables' grants' and policies' to say.
      REVOKE ALL ON FUNCTION evidesk_cite(json, text) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION evidesk_cite(json, text) TO evidesk_agent, evidesk_reviewer, evidesk_auditor, evidesk_admin;

      -- A write's entries as evidesk_audit_append_hashed appends them (the same entries, hashes and
      -- checks), with less under the chain's lock: the rows they name are checked before it, and
      -- the entries are inserted by one statement (the head follows them once, not once an entry).
${appendFunctionHead('evidesk_audit_append_rows')}        hashes text[] := '{}';
        row_there boolean;
      BEGIN
        FOR i IN 1 .. coalesce(cardinality(p_action), 0) LOOP
          -- An entry names a row of a covered table that exists (written in this transaction): no
          -- member can claim a row id ahead of its writer and block it.
          IF p_table[i] IS NOT NULL THEN
            IF NOT (p_table[i] = ANY (ARRAY[${CHAIN_TABLE_NAMES.map((t) => `'${t}'`).join(', ')}])) THEN
              RAISE EXCEPTION 'audit entry % names %, which the chain does not cover', i, p_table[i] USING ERRCODE = '${CHAIN_LINK_SQLSTATE}';
            END IF;
            EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE id = $1)', p_table[i]) INTO row_there USING p_row_id[i];
            IF NOT row_there THEN
              RAISE EXCEPTION 'audit entry % records % row %, which does not exist', i, p_table[i], p_row_id[i] USING ERRCODE = '${CHAIN_LINK_SQLSTATE}';
            END IF;
          END IF;
        END LOOP;
        SELECT * INTO head FROM evidesk_audit_head();
        n := head.seq;
        prev := head.hash;
        FOR i IN 1 .. coalesce(cardinality(p_action), 0) LOOP
          n := n + 1;
          prev := ${ENTRY_HASH_SQL};
          hashes := hashes || prev;
        END LOOP;
        INSERT INTO audit_log (action, payload, created_at, prev_hash, hash, hash_version, seq, table_name, row_id, row_hash)
          SELECT e.action, e.payload, p_created_at, coalesce(lag(e.hash) OVER (ORDER BY e.k), head.hash), e.hash, 2, head.seq + e.k, e.tbl, e.row_id, e.row_hash
          FROM unnest(p_action, p_payload, p_table, p_row_id, p_row_hash, hashes) WITH ORDINALITY AS e(action, payload, tbl, row_id, row_hash, hash, k)
          ORDER BY e.k;
        RETURN pg_current_xact_id_if_assigned()::text;
      END
      $fn$;
${appendFunctionGrants('evidesk_audit_append_rows')}`;
