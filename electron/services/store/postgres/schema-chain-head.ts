/**
 * PostgreSQL migration 13: the shared chain's end is recorded beside it (issue 13, Done-when 3).
 * On SQLite the head file anchors the end of the chain; on PostgreSQL `audit_head` holds one row,
 * the chain's entry count and last hash, moved forward by a trigger on every insert into
 * audit_log (an append through evidesk_audit_append, or the owner's copy of a migrated
 * workspace), in the same transaction. A guard refuses any other change to it: a direct UPDATE
 * or DELETE, a count that goes back, a TRUNCATE. So deleting the newest entries (past audit_log's
 * append-only trigger) leaves a head that counts more entries than the log holds, and the walk
 * reports the cut.
 *
 * What this does not stop: the table owner (or a superuser) can switch the guard off too and
 * rewrite both tables consistently. That is caught outside the database, by each member's own
 * head file (shared-audit-head-file.ts): `chain_id` names this chain in those files.
 * Members read the row (to keep their head file), and nobody but the trigger writes it.
 */
import { APPEND_ONLY_SQLSTATE } from './schema-evidence.ts';

const DEFINER = 'SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp';

export const CHAIN_HEAD_SCHEMA_SQL = `
      CREATE TABLE audit_head (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        chain_id uuid NOT NULL DEFAULT gen_random_uuid(),
        count bigint NOT NULL CHECK (count >= 0),
        hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- The chain as it is now (a workspace migrated or written before this migration).
      INSERT INTO audit_head (count, hash)
        SELECT count(*), coalesce((SELECT a.hash FROM audit_log a ORDER BY a.id DESC LIMIT 1), repeat('0', 64)) FROM audit_log;

      -- Every entry inserted moves the head on, in the inserting transaction (rolled back with it);
      -- once per statement, so the owner's copy of a migrated workspace moves it once a page.
      CREATE FUNCTION evidesk_audit_head_follow() RETURNS trigger LANGUAGE plpgsql ${DEFINER} AS $fn$
      BEGIN
        UPDATE audit_head h SET count = h.count + a.n, hash = a.last, updated_at = now()
          FROM (SELECT count(*) AS n, (SELECT x.hash FROM added x ORDER BY x.id DESC LIMIT 1) AS last FROM added) a
          WHERE a.n > 0;
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER audit_log_head_follow AFTER INSERT ON audit_log REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION evidesk_audit_head_follow();

      -- Only that trigger (one level down) may move the head, and only forward.
      CREATE FUNCTION evidesk_audit_head_guard() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 AND NEW.count > OLD.count AND NEW.chain_id = OLD.chain_id THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'the audit chain''s head moves only with an appended entry'
          USING ERRCODE = '${APPEND_ONLY_SQLSTATE}', TABLE = TG_TABLE_NAME;
      END
      $fn$;
      CREATE TRIGGER audit_head_guard BEFORE UPDATE OR DELETE ON audit_head FOR EACH ROW EXECUTE FUNCTION evidesk_audit_head_guard();
      CREATE TRIGGER audit_head_no_truncate BEFORE TRUNCATE ON audit_head FOR EACH STATEMENT EXECUTE FUNCTION evidesk_append_only();
      CREATE TRIGGER audit_head_one_row BEFORE INSERT ON audit_head FOR EACH ROW EXECUTE FUNCTION evidesk_append_only();

      GRANT SELECT ON audit_head TO evidesk_agent, evidesk_reviewer, evidesk_auditor, evidesk_admin;
`;
