/**
 * The team bench's search section (issue 13, Done-when 6): one generated library of 100,000
 * segments stored in both engines through their stores (SQLite's SourcesStore, PostgreSQL's
 * PgStore as an admin: snapshots, segments, audit chain), then the same queries through the same
 * SearchService on both, as the app's search box asks them (top 20 with snippets).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SearchService } from '../electron/services/search/search-service.ts';
import { openDatabase } from '../electron/services/store/database.ts';
import { migratePostgres } from '../electron/services/store/postgres/migrate.ts';
import { pgEvidenceStore } from '../electron/services/store/postgres/pg-evidence-store.ts';
import { PgStore } from '../electron/services/store/postgres/pg-store.ts';
import { grantMember } from '../electron/services/store/postgres/team.ts';
import { SourcesStore } from '../electron/services/store/sources-store.ts';
import { sqliteEvidenceStore } from '../electron/services/store/sqlite-evidence-store.ts';
import { rng } from '../test/support/random.ts';
import type { TestPostgres } from '../test/support/postgres.ts';
import { vocabulary } from './fts.bench.ts';
import { percentile, type BenchSection } from './report.ts';

const SEGMENTS = Number(process.env.EVIDESK_TEAM_BENCH_SEGMENTS ?? 100_000);
const PER_SOURCE = 1000;
const WORDS = 40;
const QUERIES = 200;

const started = performance.now();
/** A line on stderr as each step ends: a long run on a busy machine shows where it is. */
export function progress(step: string): void {
  process.stderr.write(`team bench: ${step} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
}

interface Library {
  sources: { sha256: string; text: string; segments: string[] }[];
  queries: string[];
}

/** Seeded pseudo-prose over a Zipf-like vocabulary, and queries of 2–3 words, half of them frequent words. */
function library(): Library {
  const random = rng(1313);
  const vocab = vocabulary(30_000, random);
  const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(vocab.length * random() ** 3))] ?? 'ka';
  const sources = Array.from({ length: Math.ceil(SEGMENTS / PER_SOURCE) }, () => {
    const segments = Array.from({ length: PER_SOURCE }, () => Array.from({ length: WORDS }, zipf).join(' '));
    const text = `${segments.join('\n')}\n`;
    return { sha256: createHash('sha256').update(text).digest('hex'), text, segments };
  });
  const word = (i: number) => (i % 2 === 0 ? zipf() : (vocab[Math.floor(random() * vocab.length)] ?? 'ka'));
  const queries = Array.from({ length: QUERIES }, (_, q) => Array.from({ length: 2 + Math.floor(random() * 2) }, () => word(q)).join(' '));
  return { sources, queries };
}

/** Each query once to warm, then each timed; sorted latencies. */
async function timeQueries(search: SearchService, queries: readonly string[]): Promise<{ ms: number[]; hits: number }> {
  const options = { limit: 20, snippets: true };
  for (const q of queries.slice(0, 20)) await search.search(q, options);
  const ms: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t = performance.now();
    hits += (await search.search(q, options)).length;
    ms.push(performance.now() - t);
  }
  return { ms: ms.sort((a, b) => a - b), hits };
}

export async function searchSection(server: TestPostgres, root: string): Promise<BenchSection> {
  const lib = library();
  const segmentCount = lib.sources.reduce((n, s) => n + s.segments.length, 0);
  const now = new Date().toISOString();

  // SQLite: the library through SourcesStore (no extraction), one source a transaction.
  const dir = path.join(root, 'search-sqlite');
  fs.mkdirSync(dir, { recursive: true });
  const db = openDatabase(dir);
  const pgDb = await server.anotherDatabase();
  const pgOwner = await pgDb.owner();
  let admin: PgStore | undefined;
  try {
    const sqliteSources = new SourcesStore(db);
    let t0 = performance.now();
    const ids = lib.sources.map((s, i) =>
      sqliteSources.insert(
        {
          sha256: s.sha256,
          fileName: `library-${i}.txt`,
          byteSize: Buffer.byteLength(s.text),
          path: `/library/library-${i}.txt`,
          stat: { size: Buffer.byteLength(s.text), mtimeMs: 0 },
          doc: { kind: 'text', method: 'bench', title: null, pageCount: null, warnings: [], segments: s.segments.map((text, l) => ({ text, line: l + 1, lineEnd: l + 1, blockType: 'lines' })) },
          snapshot: null,
          predecessorId: null,
        },
        now,
      ),
    );
    const sqliteStoreMs = performance.now() - t0;
    progress(`search library stored on SQLite (${segmentCount} segments)`);

    // PostgreSQL: the same library stored by an admin, snapshot and all, one source a transaction.
    await migratePostgres(pgOwner);
    const login = `${pgDb.loginPrefix}search_admin`;
    await grantMember(pgOwner, { login, password: 'search', level: 'admin', projects: [] });
    admin = await PgStore.connect(pgDb.urlFor(login, 'search'), { max: 1 });
    t0 = performance.now();
    for (const [i, s] of lib.sources.entries()) {
      const bytes = Buffer.from(s.text);
      await admin.addSource(
        {
          sha256: s.sha256,
          kind: 'text',
          fileName: `library-${i}.txt`,
          byteSize: bytes.length,
          pageCount: null,
          title: null,
          extractionMethod: 'bench',
          // The locators as SQLite made them, so both engines hold the same segments.
          segments: sqliteSources.segments(ids[i] ?? 0).map((g) => ({ text: g.text, locator: JSON.parse(g.locator) as unknown })),
        },
        async function* () {
          yield bytes;
        },
        now,
      );
    }
    const pgStoreMs = performance.now() - t0;
    progress('search library stored on PostgreSQL');
    // As autovacuum would before long: the planner's statistics of the new rows.
    await pgOwner.query('ANALYZE');

    const sqlite = await timeQueries(new SearchService(sqliteEvidenceStore(db).search), lib.queries);
    const postgres = await timeQueries(new SearchService(pgEvidenceStore(admin).search), lib.queries);
    progress('searched on both');
    const goal = { op: '<=' as const, value: 20, of: 'value' as const };
    return {
      title: `team: search at ${segmentCount.toLocaleString('en')} segments, the same generated library in both engines, same run`,
      figures: [
        { name: `store ${lib.sources.length} sources of ${PER_SOURCE} segments on SQLite (SourcesStore, chain)`, value: sqliteStoreMs, unit: 'ms' },
        { name: `store the same on PostgreSQL as an admin (snapshots, segments, tsvector and trigram indexes, chain)`, value: pgStoreMs, unit: 'ms' },
        { name: 'search p50 on SQLite (FTS5, bm25), top 20 with snippets', value: percentile(sqlite.ms, 50), unit: 'ms' },
        { name: 'search p95 on SQLite (FTS5, bm25), top 20 with snippets', value: percentile(sqlite.ms, 95), unit: 'ms', goal },
        { name: 'search p50 on PostgreSQL (tsvector, GIN, ts_rank), top 20 with snippets', value: percentile(postgres.ms, 50), unit: 'ms' },
        { name: 'search p95 on PostgreSQL (tsvector, GIN, ts_rank), top 20 with snippets', value: percentile(postgres.ms, 95), unit: 'ms', goal },
      ],
      notes: [
        `${lib.queries.length} queries of 2–3 words (half of them frequent words), asked through SearchService on each engine; hits: SQLite ${sqlite.hits}, PostgreSQL ${postgres.hits}`,
      ],
    };
  } finally {
    db.close();
    await admin?.close();
    await pgOwner.end();
  }
}
