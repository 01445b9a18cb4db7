/**
 * Numbered schema migrations, run in order at open inside one transaction each. Never edit a
 * migration that has shipped: add the next one. Invariants live in the schema (DESIGN.md §3).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
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
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
