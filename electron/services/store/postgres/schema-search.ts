/**
 * PostgreSQL migration 7, search as SQLite searches (issue 13): a text search configuration that
 * folds case and diacritics as FTS5's unicode61 tokenizer with remove_diacritics does (unaccent,
 * then 'simple': no stemming, no stop words), the segments' tsvector rebuilt with it, and the
 * hidden_subjects view SQLite's migration 15 has (a removed source is out of search).
 */
export const SEARCH_SCHEMA_SQL = `
      CREATE EXTENSION IF NOT EXISTS unaccent;
      CREATE TEXT SEARCH CONFIGURATION evidesk_search (COPY = pg_catalog.simple);
      ALTER TEXT SEARCH CONFIGURATION evidesk_search
        ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart
        WITH unaccent, simple;

      -- A generated column cannot change its expression: drop and add it (the GIN index goes with it).
      ALTER TABLE segments DROP COLUMN tsv;
      ALTER TABLE segments ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('evidesk_search'::regconfig, text)) STORED;
      CREATE INDEX segments_tsv ON segments USING gin (tsv);

      -- The caller's row-level security applies to the rows the view reads.
      CREATE VIEW hidden_subjects WITH (security_invoker = true) AS
        SELECT c.subject, c.subject_id, c.created_at AS hidden_at FROM library_changes c
        WHERE c.action = 'hide' AND c.id = (
          SELECT max(id) FROM library_changes l WHERE l.subject = c.subject AND l.subject_id = c.subject_id AND l.action IN ('hide', 'show'));
      GRANT SELECT ON hidden_subjects TO evidesk_agent, evidesk_reviewer, evidesk_auditor, evidesk_admin;
`;
