import type { Migration } from './migration.ts';

/**
 * Migrations 10 to 13: new kinds of evidence. Agent sessions with citing contexts and custom
 * sources, web fetch records, OCR text of scanned pages, PowerPoint and Excel sources.
 * Shipped: never edited, only followed by new ones.
 */
export const NEW_EVIDENCE_KINDS: readonly Migration[] = [
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
];
