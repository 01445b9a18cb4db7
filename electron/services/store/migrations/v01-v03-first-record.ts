import type { Migration } from './migration.ts';

/**
 * Migrations 1 to 3: the first record. Sources with their paths and segments, the full-text index
 * over the segments, and answers with their citations, verification runs, review decisions and
 * audit log.
 * Shipped: never edited, only followed by new ones.
 */
export const FIRST_RECORD: readonly Migration[] = [
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
];
