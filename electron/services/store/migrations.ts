import { ChainStore } from './audit-chain-store.ts';
import type { Db } from './database.ts';

/**
 * Numbered schema migrations, run in order at open inside one transaction each. Never edit a
 * migration that has shipped: add the next one. Invariants live in the schema (DESIGN.md §3).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** A step SQL cannot do (hashing), run after `sql` in the same transaction. */
  run?: (db: Db) => void;
  /**
   * Rebuilds a table others reference: run with foreign keys off (SQLite's own procedure for a
   * schema change; with them on, dropping the old table would cascade-delete its children), then
   * checked by foreign_key_check before the transaction commits.
   */
  rebuildsReferencedTable?: boolean;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sources, known paths and segments',
    sql: `
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE sources (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
        kind TEXT NOT NULL CHECK (kind IN ('pdf', 'docx', 'text', 'markdown', 'html')),
        file_name TEXT NOT NULL CHECK (length(file_name) > 0),
        byte_size INTEGER NOT NULL CHECK (byte_size >= 0),
        page_count INTEGER CHECK (page_count IS NULL OR page_count >= 0),
        title TEXT,
        extraction_method TEXT NOT NULL,
        warnings TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(warnings)),
        predecessor_id INTEGER REFERENCES sources(id),
        snapshot TEXT,
        restricted INTEGER NOT NULL DEFAULT 0 CHECK (restricted IN (0, 1)),
        added_at TEXT NOT NULL
      ) STRICT;

      -- Every path a source's bytes were seen at; 'current' marks the one the viewer opens.
      CREATE TABLE source_paths (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        first_seen_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        current INTEGER NOT NULL DEFAULT 1 CHECK (current IN (0, 1)),
        UNIQUE (source_id, path)
      ) STRICT;
      CREATE INDEX source_paths_path ON source_paths(path);

      CREATE TABLE segments (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL CHECK (ordinal >= 0),
        locator TEXT NOT NULL CHECK (json_valid(locator)),
        page INTEGER,
        page_label TEXT,
        paragraph INTEGER,
        line_start INTEGER,
        line_end INTEGER,
        heading_path TEXT CHECK (heading_path IS NULL OR json_valid(heading_path)),
        block_type TEXT,
        text TEXT NOT NULL,
        item_starts TEXT CHECK (item_starts IS NULL OR json_valid(item_starts)),
        no_text_layer INTEGER NOT NULL DEFAULT 0 CHECK (no_text_layer IN (0, 1)),
        UNIQUE (source_id, ordinal)
      ) STRICT;
      CREATE INDEX segments_page ON segments(source_id, page);
    `,
  },
{
    version: 2,
    name: 'full-text index over segments',
    sql: `
      -- External-content FTS5: the text lives once, in segments; the index follows it by triggers.
      CREATE VIRTUAL TABLE segments_fts USING fts5(
        text,
        content = 'segments',
        content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO segments_fts (rowid, text) SELECT id, text FROM segments;
      CREATE TRIGGER segments_fts_insert AFTER INSERT ON segments BEGIN
        INSERT INTO segments_fts (rowid, text) VALUES (new.id, new.text);
      END;
      CREATE TRIGGER segments_fts_delete AFTER DELETE ON segments BEGIN
        INSERT INTO segments_fts (segments_fts, rowid, text) VALUES ('delete', old.id, old.text);
      END;
      CREATE TRIGGER segments_fts_update AFTER UPDATE OF text ON segments BEGIN
        INSERT INTO segments_fts (segments_fts, rowid, text) VALUES ('delete', old.id, old.text);
        INSERT INTO segments_fts (rowid, text) VALUES (new.id, new.text);
      END;
    `,
  },
  {
    version: 3,
    name: 'answers, citations, verification runs, review decisions, audit log',
    sql: `
      CREATE TABLE answers (
        id INTEGER PRIMARY KEY,
        format TEXT NOT NULL,
        question TEXT,
        answer_text TEXT NOT NULL,
        origin TEXT NOT NULL,
        raw TEXT,
        created_at TEXT NOT NULL
      ) STRICT;

      -- A citation whose source reference matches no workspace source points here, explicitly.
      CREATE TABLE unknown_sources (
        id INTEGER PRIMARY KEY,
        reference TEXT NOT NULL UNIQUE
      ) STRICT;

      CREATE TABLE citations (
        id INTEGER PRIMARY KEY,
        answer_id INTEGER NOT NULL REFERENCES answers(id),
        ordinal INTEGER NOT NULL CHECK (ordinal >= 0),
        marker TEXT NOT NULL,
        claim TEXT NOT NULL,
        quote TEXT,
        context TEXT,
        source_id INTEGER REFERENCES sources(id),
        unknown_source_id INTEGER REFERENCES unknown_sources(id),
        claimed_locator TEXT NOT NULL CHECK (json_valid(claimed_locator)),
        method TEXT CHECK (method IS NULL OR method IN ('direct_quote', 'paraphrase', 'inference', 'aggregation', 'negative')),
        confidence TEXT,
        supersedes_id INTEGER REFERENCES citations(id),
        created_at TEXT NOT NULL,
        CHECK ((source_id IS NULL) <> (unknown_source_id IS NULL))
      ) STRICT;
      CREATE INDEX citations_answer ON citations(answer_id, ordinal);
      CREATE INDEX citations_source ON citations(source_id);

      CREATE TABLE verification_runs (
        id INTEGER PRIMARY KEY,
        answer_id INTEGER NOT NULL REFERENCES answers(id),
        verifier TEXT NOT NULL,
        summary TEXT NOT NULL CHECK (json_valid(summary)),
        risk_flags TEXT NOT NULL CHECK (json_valid(risk_flags)),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX verification_runs_answer ON verification_runs(answer_id, id);

      -- One anchoring result per citation per run; prefix/suffix let it be found again in a new version.
      CREATE TABLE citation_results (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES verification_runs(id),
        citation_id INTEGER NOT NULL REFERENCES citations(id),
        status TEXT NOT NULL CHECK (status IN ('verified', 'verified_elsewhere', 'partial', 'not_found', 'source_unknown', 'no_quote')),
        verdict TEXT NOT NULL CHECK (verdict IN ('supported', 'weak', 'contradicted', 'not_found')),
        score REAL NOT NULL CHECK (score >= 0 AND score <= 1),
        confidence REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        source_id INTEGER REFERENCES sources(id),
        segment_id INTEGER REFERENCES segments(id),
        start_offset INTEGER,
        end_segment_id INTEGER REFERENCES segments(id),
        end_offset INTEGER,
        page INTEGER,
        page_label TEXT,
        match_method TEXT,
        matched_text TEXT,
        quote TEXT,
        prefix TEXT,
        suffix TEXT,
        notes TEXT NOT NULL CHECK (json_valid(notes)),
        UNIQUE (run_id, citation_id),
        CHECK (segment_id IS NULL OR (start_offset IS NOT NULL AND end_offset IS NOT NULL))
      ) STRICT;
      CREATE INDEX citation_results_citation ON citation_results(citation_id, run_id);

      CREATE TABLE review_decisions (
        id INTEGER PRIMARY KEY,
        citation_id INTEGER NOT NULL REFERENCES citations(id),
        decision TEXT NOT NULL CHECK (decision IN ('accepted', 'rejected', 'flagged')),
        note TEXT,
        supersedes_id INTEGER REFERENCES review_decisions(id),
        created_at TEXT NOT NULL
      ) STRICT;

      -- Hash chain: hash = SHA-256(prev_hash || action || payload || created_at); tampering breaks it.
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        action TEXT NOT NULL,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        created_at TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE
      ) STRICT;

      CREATE TRIGGER citations_no_update BEFORE UPDATE ON citations BEGIN SELECT RAISE(ABORT, 'citations is append-only: add a superseding row instead'); END;
      CREATE TRIGGER citations_no_delete BEFORE DELETE ON citations BEGIN SELECT RAISE(ABORT, 'citations is append-only: add a superseding row instead'); END;
      CREATE TRIGGER verification_runs_no_update BEFORE UPDATE ON verification_runs BEGIN SELECT RAISE(ABORT, 'verification_runs is append-only: add a superseding row instead'); END;
      CREATE TRIGGER verification_runs_no_delete BEFORE DELETE ON verification_runs BEGIN SELECT RAISE(ABORT, 'verification_runs is append-only: add a superseding row instead'); END;
      CREATE TRIGGER citation_results_no_update BEFORE UPDATE ON citation_results BEGIN SELECT RAISE(ABORT, 'citation_results is append-only: add a superseding row instead'); END;
      CREATE TRIGGER citation_results_no_delete BEFORE DELETE ON citation_results BEGIN SELECT RAISE(ABORT, 'citation_results is append-only: add a superseding row instead'); END;
      CREATE TRIGGER review_decisions_no_update BEFORE UPDATE ON review_decisions BEGIN SELECT RAISE(ABORT, 'review_decisions is append-only: add a superseding row instead'); END;
      CREATE TRIGGER review_decisions_no_delete BEFORE DELETE ON review_decisions BEGIN SELECT RAISE(ABORT, 'review_decisions is append-only: add a superseding row instead'); END;
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: add a superseding row instead'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: add a superseding row instead'); END;
    `,
  },
  {
    version: 4,
    name: 'result parts of a quote that runs on',
    // A quote that runs on may skip a page's running footer and the next page's head: the end of
    // its part in the first segment and the start of its part in the last keep that furniture out
    // of the highlight. NULL for older rows and quotes in one segment. ADD COLUMN is no UPDATE, so
    // the append-only triggers stay as they are and still guard the new columns.
    sql: `
      ALTER TABLE citation_results ADD COLUMN first_end INTEGER CHECK (first_end IS NULL OR first_end >= 0);
      ALTER TABLE citation_results ADD COLUMN last_start INTEGER CHECK (last_start IS NULL OR last_start >= 0);
    `,
  },
  {
    version: 5,
    name: 'append-only tables refuse REPLACE and every ON CONFLICT form',
    // SQLite runs REPLACE (and INSERT OR REPLACE, UPDATE OR REPLACE) as a silent delete of the row
    // in the way, without firing DELETE triggers; an upsert turns an INSERT into an UPDATE. A BEFORE
    // INSERT trigger fires before any conflict is resolved, so refusing an insert whose primary or
    // UNIQUE key already exists stops every form (DO UPDATE, DO NOTHING, OR IGNORE too). Fresh keys
    // pass: appending stays possible. UPDATE OR REPLACE is an UPDATE: the triggers of migration 3 refuse it.
    sql: `
      CREATE TRIGGER citations_no_replace BEFORE INSERT ON citations
        WHEN EXISTS (SELECT 1 FROM citations WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'citations is append-only: a row with this key exists, add a superseding row instead'); END;
      CREATE TRIGGER verification_runs_no_replace BEFORE INSERT ON verification_runs
        WHEN EXISTS (SELECT 1 FROM verification_runs WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'verification_runs is append-only: a row with this key exists, add a superseding row instead'); END;
      CREATE TRIGGER citation_results_no_replace BEFORE INSERT ON citation_results
        WHEN EXISTS (SELECT 1 FROM citation_results WHERE id = NEW.id OR (run_id = NEW.run_id AND citation_id = NEW.citation_id))
        BEGIN SELECT RAISE(ABORT, 'citation_results is append-only: a row with this key exists, add a superseding row instead'); END;
      CREATE TRIGGER review_decisions_no_replace BEFORE INSERT ON review_decisions
        WHEN EXISTS (SELECT 1 FROM review_decisions WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'review_decisions is append-only: a row with this key exists, add a superseding row instead'); END;
      CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
        WHEN EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id OR hash = NEW.hash)
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: a row with this key exists, add a superseding row instead'); END;
    `,
  },
  {
    version: 6,
    name: 'audit chain over the whole record',
    // Entries of hash version 2 carry their place in the chain (seq) and, when they record an
    // evidence row, its table, id and the SHA-256 of its canonical encoding; their own hash covers
    // all of it canonically (shared/audit/canonical.ts). Rows of migration 3 stay version 1 and
    // still verify by its formula. Rows written before this migration get entries in its run step.
    sql: `
      ALTER TABLE audit_log ADD COLUMN hash_version INTEGER NOT NULL DEFAULT 1 CHECK (hash_version IN (1, 2));
      ALTER TABLE audit_log ADD COLUMN seq INTEGER CHECK (seq IS NULL OR seq > 0);
      ALTER TABLE audit_log ADD COLUMN table_name TEXT;
      ALTER TABLE audit_log ADD COLUMN row_id INTEGER;
      ALTER TABLE audit_log ADD COLUMN row_hash TEXT CHECK (row_hash IS NULL OR length(row_hash) = 64);
      CREATE UNIQUE INDEX audit_log_seq ON audit_log(seq) WHERE seq IS NOT NULL;
      CREATE UNIQUE INDEX audit_log_row ON audit_log(table_name, row_id) WHERE table_name IS NOT NULL;
      DROP TRIGGER audit_log_no_replace;
      CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
        WHEN EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id OR hash = NEW.hash OR seq = NEW.seq
                     OR (table_name = NEW.table_name AND row_id = NEW.row_id))
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: a row with this key exists, add a superseding row instead'); END;
    `,
    run: (db) => {
      new ChainStore(db).backfill(new Date().toISOString());
    },
  },
  {
    version: 7,
    name: 'bibliographic properties of sources',
    // A table of its own rather than columns on sources: the chain hashes a fixed column list per
    // table, so rows recorded before this migration keep their hashes. One row per source at most,
    // written with the source in its ingest transaction; append-only like the rest of the record.
    sql: `
      CREATE TABLE source_properties (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL UNIQUE REFERENCES sources(id),
        authors TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(authors) AND json_type(authors) = 'array'),
        published TEXT CHECK (published IS NULL OR published GLOB '[0-9][0-9][0-9][0-9]*'),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TRIGGER source_properties_no_update BEFORE UPDATE ON source_properties BEGIN SELECT RAISE(ABORT, 'source_properties is append-only'); END;
      CREATE TRIGGER source_properties_no_delete BEFORE DELETE ON source_properties BEGIN SELECT RAISE(ABORT, 'source_properties is append-only'); END;
      CREATE TRIGGER source_properties_no_replace BEFORE INSERT ON source_properties
        WHEN EXISTS (SELECT 1 FROM source_properties WHERE id = NEW.id OR source_id = NEW.source_id)
        BEGIN SELECT RAISE(ABORT, 'source_properties is append-only: a row with this key exists'); END;
    `,
  },
  {
    version: 8,
    name: 'review trail: who decided, clearing and undoing as rows',
    // A CHECK cannot be changed in place, so the table is rebuilt: the same ids and values (the
    // audit chain's row hashes stay valid: the new columns are hashed only when they hold a value,
    // shared/audit/canonical.ts), then the triggers of migrations 3 and 5 again. The new table's
    // self-references name it, so the rename carries them over; dropping the old table fires no
    // trigger. 'cleared' is a row that leaves no decision in force; an undo row carries the
    // decision it restores and, in undoes_id, the row it takes back.
    sql: `
      CREATE TABLE review_decisions_v7 (
        id INTEGER PRIMARY KEY,
        citation_id INTEGER NOT NULL REFERENCES citations(id),
        decision TEXT NOT NULL CHECK (decision IN ('accepted', 'rejected', 'flagged', 'cleared')),
        note TEXT,
        supersedes_id INTEGER REFERENCES review_decisions_v7(id),
        created_at TEXT NOT NULL,
        reviewer TEXT CHECK (reviewer IS NULL OR length(trim(reviewer)) BETWEEN 1 AND 200),
        undoes_id INTEGER REFERENCES review_decisions_v7(id)
      ) STRICT;
      INSERT INTO review_decisions_v7 (id, citation_id, decision, note, supersedes_id, created_at)
        SELECT id, citation_id, decision, note, supersedes_id, created_at FROM review_decisions ORDER BY id;
      DROP TABLE review_decisions;
      ALTER TABLE review_decisions_v7 RENAME TO review_decisions;
      CREATE INDEX review_decisions_citation ON review_decisions(citation_id, id);
      CREATE TRIGGER review_decisions_no_update BEFORE UPDATE ON review_decisions BEGIN SELECT RAISE(ABORT, 'review_decisions is append-only: add a superseding row instead'); END;
      CREATE TRIGGER review_decisions_no_delete BEFORE DELETE ON review_decisions BEGIN SELECT RAISE(ABORT, 'review_decisions is append-only: add a superseding row instead'); END;
      CREATE TRIGGER review_decisions_no_replace BEFORE INSERT ON review_decisions
        WHEN EXISTS (SELECT 1 FROM review_decisions WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'review_decisions is append-only: a row with this key exists, add a superseding row instead'); END;
    `,
  },
  {
    version: 9,
    name: 'model judge opinions and closest passages of results',
    // Beside a result, never inside it (its columns are hashed by the audit chain as they are): the
    // model judge's opinion on its claim, and for a quote not found, the passage that came closest.
    // Both are evidence, so append-only like the result they belong to (one of each per result).
    sql: `
      CREATE TABLE judge_opinions (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL UNIQUE REFERENCES citation_results(id),
        model TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('answered', 'timeout', 'malformed', 'failed', 'restricted')),
        verdict TEXT CHECK (verdict IS NULL OR verdict IN ('supported', 'not_supported', 'contradicted')),
        reason TEXT,
        created_at TEXT NOT NULL,
        CHECK ((outcome = 'answered') = (verdict IS NOT NULL))
      ) STRICT;
      CREATE TABLE closest_passages (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL UNIQUE REFERENCES citation_results(id),
        source_id INTEGER NOT NULL REFERENCES sources(id),
        segment_id INTEGER NOT NULL REFERENCES segments(id),
        start_offset INTEGER NOT NULL CHECK (start_offset >= 0),
        end_offset INTEGER NOT NULL CHECK (end_offset >= start_offset),
        score REAL NOT NULL CHECK (score >= 0 AND score <= 1),
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TRIGGER judge_opinions_no_update BEFORE UPDATE ON judge_opinions BEGIN SELECT RAISE(ABORT, 'judge_opinions is append-only: add a superseding row instead'); END;
      CREATE TRIGGER judge_opinions_no_delete BEFORE DELETE ON judge_opinions BEGIN SELECT RAISE(ABORT, 'judge_opinions is append-only: add a superseding row instead'); END;
      CREATE TRIGGER judge_opinions_no_replace BEFORE INSERT ON judge_opinions
        WHEN EXISTS (SELECT 1 FROM judge_opinions WHERE id = NEW.id OR result_id = NEW.result_id)
        BEGIN SELECT RAISE(ABORT, 'judge_opinions is append-only: a row with this key exists, add a superseding row instead'); END;
      CREATE TRIGGER closest_passages_no_update BEFORE UPDATE ON closest_passages BEGIN SELECT RAISE(ABORT, 'closest_passages is append-only: add a superseding row instead'); END;
      CREATE TRIGGER closest_passages_no_delete BEFORE DELETE ON closest_passages BEGIN SELECT RAISE(ABORT, 'closest_passages is append-only: add a superseding row instead'); END;
      CREATE TRIGGER closest_passages_no_replace BEFORE INSERT ON closest_passages
        WHEN EXISTS (SELECT 1 FROM closest_passages WHERE id = NEW.id OR result_id = NEW.result_id)
        BEGIN SELECT RAISE(ABORT, 'closest_passages is append-only: a row with this key exists, add a superseding row instead'); END;
    `,
  },
  {
    version: 10,
    name: 'agent sessions, citing contexts and custom sources',
    // Issue 11: an agent cites into a session, which the app shows as one live answer. Every agent
    // citation carries its context (session, agent, user, project), NOT NULL, in a row of its own
    // written in the citation's transaction; all three tables are append-only and in the audit chain.
    sql: `
      CREATE TABLE agent_sessions (
        id INTEGER PRIMARY KEY,
        session_key TEXT NOT NULL UNIQUE CHECK (length(session_key) BETWEEN 1 AND 200),
        answer_id INTEGER NOT NULL UNIQUE REFERENCES answers(id),
        agent_id TEXT NOT NULL CHECK (length(agent_id) > 0),
        user_id TEXT NOT NULL CHECK (length(user_id) > 0),
        project_id TEXT NOT NULL CHECK (length(project_id) > 0),
        created_at TEXT NOT NULL
      ) STRICT;

      -- A source with no document (a database, a dataset): cited by identifier, never quote-checked.
      CREATE TABLE custom_sources (
        id INTEGER PRIMARY KEY,
        identifier TEXT NOT NULL UNIQUE CHECK (length(identifier) > 0),
        description TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('database', 'dataset', 'other')),
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE citation_contexts (
        id INTEGER PRIMARY KEY,
        citation_id INTEGER NOT NULL UNIQUE REFERENCES citations(id),
        session_id INTEGER NOT NULL REFERENCES agent_sessions(id),
        agent_id TEXT NOT NULL CHECK (length(agent_id) > 0),
        user_id TEXT NOT NULL CHECK (length(user_id) > 0),
        project_id TEXT NOT NULL CHECK (length(project_id) > 0),
        custom_source_id INTEGER REFERENCES custom_sources(id),
        details TEXT NOT NULL CHECK (json_valid(details)),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX citation_contexts_session ON citation_contexts(session_id, citation_id);
      CREATE INDEX citation_contexts_agent ON citation_contexts(agent_id, citation_id);
      CREATE INDEX citation_contexts_user ON citation_contexts(user_id, citation_id);
      CREATE INDEX citation_contexts_project ON citation_contexts(project_id, citation_id);
      CREATE INDEX citations_supersedes ON citations(supersedes_id) WHERE supersedes_id IS NOT NULL;

      CREATE TRIGGER agent_sessions_no_update BEFORE UPDATE ON agent_sessions BEGIN SELECT RAISE(ABORT, 'agent_sessions is append-only'); END;
      CREATE TRIGGER agent_sessions_no_delete BEFORE DELETE ON agent_sessions BEGIN SELECT RAISE(ABORT, 'agent_sessions is append-only'); END;
      CREATE TRIGGER agent_sessions_no_replace BEFORE INSERT ON agent_sessions
        WHEN EXISTS (SELECT 1 FROM agent_sessions WHERE id = NEW.id OR session_key = NEW.session_key OR answer_id = NEW.answer_id)
        BEGIN SELECT RAISE(ABORT, 'agent_sessions is append-only: a row with this key exists'); END;
      CREATE TRIGGER custom_sources_no_update BEFORE UPDATE ON custom_sources BEGIN SELECT RAISE(ABORT, 'custom_sources is append-only'); END;
      CREATE TRIGGER custom_sources_no_delete BEFORE DELETE ON custom_sources BEGIN SELECT RAISE(ABORT, 'custom_sources is append-only'); END;
      CREATE TRIGGER custom_sources_no_replace BEFORE INSERT ON custom_sources
        WHEN EXISTS (SELECT 1 FROM custom_sources WHERE id = NEW.id OR identifier = NEW.identifier)
        BEGIN SELECT RAISE(ABORT, 'custom_sources is append-only: a row with this key exists'); END;
      CREATE TRIGGER citation_contexts_no_update BEFORE UPDATE ON citation_contexts BEGIN SELECT RAISE(ABORT, 'citation_contexts is append-only'); END;
      CREATE TRIGGER citation_contexts_no_delete BEFORE DELETE ON citation_contexts BEGIN SELECT RAISE(ABORT, 'citation_contexts is append-only'); END;
      CREATE TRIGGER citation_contexts_no_replace BEFORE INSERT ON citation_contexts
        WHEN EXISTS (SELECT 1 FROM citation_contexts WHERE id = NEW.id OR citation_id = NEW.citation_id)
        BEGIN SELECT RAISE(ABORT, 'citation_contexts is append-only: a row with this key exists'); END;
    `,
  },
  {
    version: 11,
    name: 'web fetch records',
    // One row per fetch of a web page (issue 11): which URL, where it ended after redirects, what
    // came back, and which source holds the bytes. Append-only like the other evidence tables; a
    // re-fetch is a new row, whether the page changed or not.
    sql: `
      CREATE TABLE web_fetches (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id),
        url TEXT NOT NULL CHECK (url GLOB 'http://*' OR url GLOB 'https://*'),
        final_url TEXT NOT NULL CHECK (final_url GLOB 'http://*' OR final_url GLOB 'https://*'),
        redirects TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(redirects)),
        http_status INTEGER NOT NULL,
        content_type TEXT,
        byte_size INTEGER NOT NULL CHECK (byte_size >= 0),
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
        fetched_at TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('added', 'new_version', 'unchanged', 'duplicate'))
      ) STRICT;
      CREATE INDEX web_fetches_url ON web_fetches(url, id);
      CREATE INDEX web_fetches_source ON web_fetches(source_id, id);
      CREATE TRIGGER web_fetches_no_update BEFORE UPDATE ON web_fetches BEGIN SELECT RAISE(ABORT, 'web_fetches is append-only: add a new fetch record instead'); END;
      CREATE TRIGGER web_fetches_no_delete BEFORE DELETE ON web_fetches BEGIN SELECT RAISE(ABORT, 'web_fetches is append-only: add a new fetch record instead'); END;
      CREATE TRIGGER web_fetches_no_replace BEFORE INSERT ON web_fetches
        WHEN EXISTS (SELECT 1 FROM web_fetches WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'web_fetches is append-only: a row with this key exists'); END;
    `,
  },
  {
    version: 12,
    name: 'OCR text of scanned pages: method, mean confidence and word boxes',
    // A page without a text layer may hold text recognised by OCR: it is stored as any page's text
    // (offsets, one item per word), and these columns say so. NULL on every page not read by OCR.
    // Boxes are [x0, y0, x1, y1] per item, as fractions of the displayed page (shared/ocr/ocr-text.ts).
    sql: `
      ALTER TABLE segments ADD COLUMN ocr_method TEXT;
      ALTER TABLE segments ADD COLUMN ocr_confidence REAL CHECK (ocr_confidence IS NULL OR (ocr_confidence >= 0 AND ocr_confidence <= 100));
      ALTER TABLE segments ADD COLUMN ocr_boxes TEXT CHECK (ocr_boxes IS NULL OR json_valid(ocr_boxes));
    `,
  },
  {
    version: 13,
    name: 'PowerPoint and Excel sources',
    // Issue 14: sources.kind admits 'pptx' and 'xlsx'. A CHECK cannot be changed in place, so the
    // table is rebuilt as migration 8 rebuilt review_decisions: the same ids and values (the audit
    // chain's row hashes stay valid), its UNIQUE index comes back with it. sources has no triggers.
    // The tables that reference sources(id) name it, so they point at the new table after the rename.
    rebuildsReferencedTable: true,
    sql: `
      CREATE TABLE sources_v13 (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
        kind TEXT NOT NULL CHECK (kind IN ('pdf', 'docx', 'text', 'markdown', 'html', 'pptx', 'xlsx')),
        file_name TEXT NOT NULL CHECK (length(file_name) > 0),
        byte_size INTEGER NOT NULL CHECK (byte_size >= 0),
        page_count INTEGER CHECK (page_count IS NULL OR page_count >= 0),
        title TEXT,
        extraction_method TEXT NOT NULL,
        warnings TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(warnings)),
        predecessor_id INTEGER REFERENCES sources(id),
        snapshot TEXT,
        restricted INTEGER NOT NULL DEFAULT 0 CHECK (restricted IN (0, 1)),
        added_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO sources_v13 (id, sha256, kind, file_name, byte_size, page_count, title, extraction_method, warnings, predecessor_id, snapshot, restricted, added_at)
        SELECT id, sha256, kind, file_name, byte_size, page_count, title, extraction_method, warnings, predecessor_id, snapshot, restricted, added_at FROM sources ORDER BY id;
      DROP TABLE sources;
      ALTER TABLE sources_v13 RENAME TO sources;
    `,
  },
  {
    version: 14,
    name: 'indexes for the library pages: each sort key with the id as tiebreak',
    // Keyset paging (issue 16) seeks to (key, id) through these, so a page deep in 100,000 sources
    // costs what the first does; the name sort compares as the list shows it, without case.
    sql: `
      CREATE INDEX sources_by_added ON sources(added_at, id);
      CREATE INDEX sources_by_name ON sources(file_name COLLATE NOCASE, id);
      CREATE INDEX sources_by_size ON sources(byte_size, id);
      CREATE INDEX sources_by_kind ON sources(kind, id);
    `,
  },
  {
    version: 15,
    name: 'library changes: answers renamed, answers and sources removed from view',
    // Issue 12 item 4. Removing an answer or a source hides it; nothing is deleted, and the change is
    // itself an appended row the audit chain covers. The newest 'hide'/'show' row of a subject says
    // whether it is hidden, the newest 'rename' row its name. The views say it once for every query.
    sql: `
      CREATE TABLE library_changes (
        id INTEGER PRIMARY KEY,
        subject TEXT NOT NULL CHECK (subject IN ('answer', 'source')),
        subject_id INTEGER NOT NULL CHECK (subject_id > 0),
        action TEXT NOT NULL CHECK (action IN ('rename', 'hide', 'show')),
        value TEXT CHECK ((action = 'rename') = (value IS NOT NULL)),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX library_changes_subject ON library_changes(subject, subject_id, id);
      CREATE TRIGGER library_changes_no_update BEFORE UPDATE ON library_changes BEGIN SELECT RAISE(ABORT, 'library_changes is append-only: add a superseding row instead'); END;
      CREATE TRIGGER library_changes_no_delete BEFORE DELETE ON library_changes BEGIN SELECT RAISE(ABORT, 'library_changes is append-only: add a superseding row instead'); END;
      CREATE TRIGGER library_changes_no_replace BEFORE INSERT ON library_changes
        WHEN EXISTS (SELECT 1 FROM library_changes WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'library_changes is append-only: a row with this key exists'); END;
      CREATE VIEW hidden_subjects AS
        SELECT c.subject, c.subject_id, c.created_at AS hidden_at FROM library_changes c
        WHERE c.action = 'hide' AND c.id = (
          SELECT max(id) FROM library_changes l WHERE l.subject = c.subject AND l.subject_id = c.subject_id AND l.action IN ('hide', 'show'));
      CREATE VIEW subject_names AS
        SELECT c.subject, c.subject_id, c.value AS name FROM library_changes c
        WHERE c.action = 'rename' AND c.id = (
          SELECT max(id) FROM library_changes l WHERE l.subject = c.subject AND l.subject_id = c.subject_id AND l.action = 'rename');
    `,
  },
  {
    version: 16,
    name: 'verification in batches: the plan and the end of a run; indexes for resolving names and versions',
    // Issue 16 item 4. A large answer is verified in batches, each batch's results committed on
    // their own, so a run is written before its summary is known. Such a run records how many
    // citations it set out to verify (planned; NULL for a run stored whole, summary final), and
    // its end is an appended row: complete or cancelled, with the summary and risk flags of the
    // results stored. A run with a plan and no end was interrupted (or is still running).
    // ADD COLUMN is no UPDATE: the append-only triggers still guard the run rows.
    // The indexes: a citation names its source by file name or title without regard to case, and
    // each check asks for a source's newer versions; both scanned every source before.
    sql: `
      ALTER TABLE verification_runs ADD COLUMN planned INTEGER CHECK (planned IS NULL OR planned >= 0);
      CREATE TABLE verification_run_ends (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL UNIQUE REFERENCES verification_runs(id),
        state TEXT NOT NULL CHECK (state IN ('complete', 'cancelled')),
        done INTEGER NOT NULL CHECK (done >= 0),
        summary TEXT NOT NULL CHECK (json_valid(summary)),
        risk_flags TEXT NOT NULL CHECK (json_valid(risk_flags)),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TRIGGER verification_run_ends_no_update BEFORE UPDATE ON verification_run_ends BEGIN SELECT RAISE(ABORT, 'verification_run_ends is append-only'); END;
      CREATE TRIGGER verification_run_ends_no_delete BEFORE DELETE ON verification_run_ends BEGIN SELECT RAISE(ABORT, 'verification_run_ends is append-only'); END;
      CREATE TRIGGER verification_run_ends_no_replace BEFORE INSERT ON verification_run_ends
        WHEN EXISTS (SELECT 1 FROM verification_run_ends WHERE id = NEW.id OR run_id = NEW.run_id)
        BEGIN SELECT RAISE(ABORT, 'verification_run_ends is append-only: a row with this key exists'); END;
      CREATE INDEX sources_lower_file_name ON sources(lower(file_name));
      CREATE INDEX sources_lower_title ON sources(lower(title));
      CREATE INDEX sources_predecessor ON sources(predecessor_id) WHERE predecessor_id IS NOT NULL;
    `,
  },
  {
    version: 17,
    name: 'index of the restricted sources',
    // The library's summary counts restricted sources (issue 16): through this partial index the count
    // reads the few restricted rows instead of every source of a 100,000-source library.
    sql: `
      CREATE INDEX sources_restricted ON sources(id) WHERE restricted = 1;
    `,
  },
  {
    version: 18,
    name: 'text-item geometry of PDF pages',
    // Issue 9: where pdf.js placed each text item of a PDF page whose text is stored, packed
    // (electron/services/ingest/text-geometry.ts), so that a report's excerpts box a quote from it
    // rather than reading the page again; with the SHA-256 of the page text it was joined into, so
    // that it is used only with that text. Derived from the source's bytes like the full-text index:
    // outside the audit chain, written at ingestion or by the first export that reads a page
    // ingested before this migration, and not moved to PostgreSQL (pg-workspace-tables.ts).
    sql: `
      CREATE TABLE page_text_items (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id),
        page INTEGER NOT NULL CHECK (page >= 1),
        text_sha256 TEXT NOT NULL CHECK (length(text_sha256) = 64),
        items BLOB NOT NULL,
        UNIQUE (source_id, page)
      ) STRICT;
    `,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
