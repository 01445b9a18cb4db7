/**
 * PostgreSQL migration 11: a write's audit entries hashed inside the database (issue 13, the cite
 * goal). Before, a writer read the chain's head under the chain's lock (one round trip), hashed
 * its entries in JavaScript, then appended them (another), the lock held to the commit. Here one
 * call takes the lock, reads the head, hashes each entry as shared/audit's entryHash does (hash
 * version 2: SHA-256 of the canonical JSON of its fields, keys sorted; to_json escapes text as
 * JSON.stringify does) and appends it through evidesk_audit_append, which checks it as before.
 * The rows' hashes, which need the tables' fixed column lists, are still computed by the writer,
 * before the call and outside the lock. The chain's entries and hashes are the same as before.
 */
const DEFINER = 'SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp';

/**
 * Entry i's hash (hash version 2) in plpgsql, over the append functions' arguments (p_action[],
 * p_payload[], p_created_at, p_table[], p_row_id[], p_row_hash[]) and the variables prev (the hash
 * before it) and n (its seq).
 */
export const ENTRY_HASH_SQL = `encode(sha256(convert_to(
                 '{"action":' || to_json(p_action[i])::text
              || ',"createdAt":' || to_json(p_created_at)::text
              || ',"payload":' || to_json(p_payload[i])::text
              || ',"prev":' || to_json(prev)::text
              || ',"rowHash":' || coalesce(to_json(p_row_hash[i])::text, 'null')
              || ',"rowId":' || coalesce(p_row_id[i]::text, 'null')
              || ',"seq":' || n::text
              || ',"table":' || coalesce(to_json(p_table[i])::text, 'null')
              || ',"v":2}', 'UTF8')), 'hex')`;

/**
 * The head of an append function taking a write's entries as arrays (migrations 11 and 14): its
 * arguments, and the variables every one keeps (the head read under the lock, then each entry's
 * seq and the hash before it); the caller's own declarations follow.
 */
export function appendFunctionHead(name: string): string {
  return `      CREATE FUNCTION ${name}(p_action text[], p_payload text[], p_created_at text,
${' '.repeat(name.length + 23)}p_table text[], p_row_id bigint[], p_row_hash text[]) RETURNS text
      LANGUAGE plpgsql ${DEFINER} AS $fn$
      DECLARE
        head record;
        n bigint;
        prev text;
`;
}

/** Who may call such a function: the levels that write (an auditor writes nothing). */
export function appendFunctionGrants(name: string): string {
  return `      REVOKE ALL ON FUNCTION ${name}(text[], text[], text, text[], bigint[], text[]) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION ${name}(text[], text[], text, text[], bigint[], text[])
        TO evidesk_agent, evidesk_reviewer, evidesk_admin;
`;
}

export const CHAIN_APPEND_SCHEMA_SQL = `
${appendFunctionHead('evidesk_audit_append_hashed')}        h text;
      BEGIN
        SELECT * INTO head FROM evidesk_audit_head();
        n := head.seq;
        prev := head.hash;
        FOR i IN 1 .. coalesce(cardinality(p_action), 0) LOOP
          n := n + 1;
          h := ${ENTRY_HASH_SQL};
          PERFORM evidesk_audit_append(n, prev, p_action[i], p_payload[i], p_created_at, h, p_table[i], p_row_id[i], p_row_hash[i]);
          prev := h;
        END LOOP;
        RETURN pg_current_xact_id_if_assigned()::text;
      END
      $fn$;
${appendFunctionGrants('evidesk_audit_append_hashed')}`;
