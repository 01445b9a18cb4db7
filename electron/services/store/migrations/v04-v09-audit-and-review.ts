import { ChainStore } from '../audit-chain-store.ts';
import type { Migration } from './migration.ts';

/**
 * Migrations 4 to 9: the record made whole. Result parts of a quote that runs on, append-only
 * tables that refuse every REPLACE, the audit chain over every row, bibliographic properties, the
 * review trail, model judge opinions and closest passages.
 * Shipped: never edited, only followed by new ones.
 */
export const AUDIT_AND_REVIEW: readonly Migration[] = [
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
];
