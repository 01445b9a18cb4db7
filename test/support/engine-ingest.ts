/**
 * For the ingest suites that run on both engines (issue 13, Done-when 1): an empty workspace
 * per test whose ingest writes through the engine in use (on PostgreSQL as a member with the
 * admin level: only admins add sources), and what is stored, read back as one comparable text.
 */
import path from 'node:path';
import { beforeEach, expect } from 'vitest';
import type { EngineFixture, Opened } from './engines.ts';
import { workspaceSnapshot, type TestServices } from './workspace.ts';

/** A fresh, empty workspace on the engine (PostgreSQL: a fresh database with an empty workspace moved in). */
export function openEmpty(engine: EngineFixture): Promise<Opened<undefined>> {
  return engine.open(async () => undefined, { as: 'admin' });
}

/**
 * For each test of the enclosing describe: a fresh empty workspace on the engine and the folder
 * its generated files are written to (closed after the test by the fixture).
 */
export function withEngineDocs(engine: EngineFixture, use: (opened: Opened<undefined> & { docs: string }) => void): void {
  beforeEach(async () => {
    const opened = await openEmpty(engine);
    expect(opened.services.evidence.engine).toBe(engine.name);
    use({ ...opened, docs: path.join(opened.services.dir, 'docs') });
  }, 120_000);
}

/** Tables whose rows are derived or the workspace's own record rather than what an ingest stores. */
const NOT_STORED_BY_INGEST = new Set(['schema_migrations', 'workspace_origin']);

/**
 * Everything stored, as one text: on SQLite every table and the blobs folder; on PostgreSQL every
 * table of the shared database (read as its owner) and the local workspace's (which an ingest
 * there must leave alone as well). Equal before and after means nothing was stored.
 */
export async function storedState(opened: Opened<unknown>): Promise<string> {
  const local = workspaceSnapshot(opened.services);
  if (!opened.database) return local;
  const owner = await opened.database.owner();
  try {
    const tables = (
      await owner.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1")
    ).rows.map((r) => r.name);
    const rows: string[] = [];
    for (const t of tables.filter((name) => !NOT_STORED_BY_INGEST.has(name))) {
      rows.push(`${t}:${JSON.stringify((await owner.query(`SELECT * FROM "${t}" ORDER BY 1`)).rows)}`);
    }
    return [...rows, local].join('\n');
  } finally {
    await owner.end();
  }
}

/** How many sources the engine holds. */
export async function sourceCount(services: TestServices): Promise<number> {
  return (await services.evidence.sources.list()).length;
}
