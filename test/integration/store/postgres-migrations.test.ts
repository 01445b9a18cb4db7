// The PostgreSQL schema (issue 13): its migrations apply once, in order, recorded in
// schema_migrations; run again they change nothing; a newer schema is refused.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/contract/errors.ts';
import { migratePostgres, PG_LATEST_SCHEMA_VERSION, PG_MIGRATIONS } from '../../../electron/services/store/postgres/migrate.ts';
import { APPEND_ONLY_TABLES } from '../../../electron/services/store/postgres/schema-evidence.ts';
import { RESULT_APPEND_ONLY_TABLES } from '../../../electron/services/store/postgres/schema-results.ts';
import { RUN_END_APPEND_ONLY_TABLES } from '../../../electron/services/store/postgres/schema-run-ends.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';

let server: TestPostgres;
let owner: pg.Client;

beforeAll(async () => {
  server = await startTestPostgres();
  owner = await server.owner();
});

afterAll(async () => {
  await owner?.end();
  await server?.close();
});

async function schemaShape(c: pg.Client): Promise<string[]> {
  const r = await c.query<{ item: string }>(`
    SELECT 'table ' || table_name || '.' || column_name || ' ' || data_type AS item FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL SELECT 'index ' || indexname FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'policy ' || tablename || '.' || policyname FROM pg_policies WHERE schemaname = 'public'
    ORDER BY 1`);
  return r.rows.map((row) => row.item);
}

describe('PostgreSQL migrations', () => {
  it('apply every version once, in a recorded order, and a second run changes nothing', async () => {
    const first = await migratePostgres(owner);
    expect(first.applied).toEqual(PG_MIGRATIONS.map((m) => m.version));
    expect(first.version).toBe(PG_LATEST_SCHEMA_VERSION);
    const shape = await schemaShape(owner);
    expect(shape).toContain('index segments_tsv');
    expect(shape).toContain('index segments_trgm');
    expect(shape).toContain('policy citations.citations_own_session');
    for (const t of [...APPEND_ONLY_TABLES, ...RESULT_APPEND_ONLY_TABLES, ...RUN_END_APPEND_ONLY_TABLES]) expect(shape).toContain(`trigger ${t}_append_only`);
    expect(shape).toContain('policy citation_results.citation_results_write');
    expect(shape).toContain('policy verification_run_ends.verification_run_ends_write');
    expect(shape).toContain('table verification_runs.planned integer');

    const second = await migratePostgres(owner);
    expect(second).toEqual({ applied: [], version: PG_LATEST_SCHEMA_VERSION });
    expect(await schemaShape(owner)).toEqual(shape);
    const recorded = await owner.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(recorded.rows).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    const ext = await owner.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
    expect(ext.rowCount).toBe(1);
  });

  it('leave nothing behind when a migration fails half-way', async () => {
    const broken = [...PG_MIGRATIONS, { version: PG_LATEST_SCHEMA_VERSION + 1, name: 'broken', sql: 'CREATE TABLE half_done (id integer); SELECT 1 / 0;' }];
    await expect(migratePostgres(owner, broken)).rejects.toMatchObject({ code: '22012' });
    expect((await owner.query("SELECT to_regclass('half_done') AS t")).rows[0]).toEqual({ t: null });
    expect((await owner.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations')).rows[0]?.v).toBe(PG_LATEST_SCHEMA_VERSION);
  });

  it('refuse a database whose schema is newer than this build knows', async () => {
    await owner.query("INSERT INTO schema_migrations (version, name) VALUES (999, 'from a newer Evidence Desk')");
    const e = await migratePostgres(owner).catch((x: unknown) => x);
    expect(isAppError(e) && e.code).toBe('WORKSPACE_TOO_NEW');
    await owner.query('DELETE FROM schema_migrations WHERE version = 999');
  });

  it('let two runners at once apply each migration once', async () => {
    const fresh = await server.anotherDatabase();
    const [a, b] = [await fresh.owner(), await fresh.owner()];
    try {
      const [ra, rb] = await Promise.all([migratePostgres(a), migratePostgres(b)]);
      expect([...ra.applied, ...rb.applied].sort((x, y) => x - y)).toEqual(PG_MIGRATIONS.map((m) => m.version));
      expect(ra.version).toBe(PG_LATEST_SCHEMA_VERSION);
      expect(rb.version).toBe(PG_LATEST_SCHEMA_VERSION);
    } finally {
      await a.end();
      await b.end();
      await fresh.drop();
    }
  });
});
