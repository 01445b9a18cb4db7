import type { Migration } from './migration.ts';

/**
 * Migrations 14 to 18: large libraries. Indexes for keyset paging and name lookups, library
 * changes (rename, remove from view), verification in batches, the restricted-source count and
 * the stored text-item geometry of PDF pages.
 * Shipped: never edited, only followed by new ones.
 */
export const LARGE_LIBRARIES: readonly Migration[] = [
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
