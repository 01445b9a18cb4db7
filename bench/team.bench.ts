/**
 * `npm run bench -- team` (issue 13, Done-when 6): the shared PostgreSQL workspace beside the local
 * SQLite one, in the same run.
 *
 * 1. The corpus (../shared/corpus when present, generated text otherwise): SQLite ingests the
 *    files (extraction and store), then PostgreSQL stores those sources as an admin (snapshot
 *    streamed in chunks, segments, audit chain, the admin's paths); the health check runs on both
 *    through the same service; cites with 8 clients at once on both.
 * 2. Search at 100,000 segments: a generated library (search-library.ts) stored in both engines
 *    through their stores, then the same queries through the same SearchService on both.
 *
 * What each cite figure covers, honestly:
 * - SQLite cite is the whole `citations.cite` call (find the source, anchor the quote, verdict,
 *   store, chain), 8 sessions interleaved in this one process.
 * - PostgreSQL cite is the same whole call through the shared cite service (shared-cite.ts: the
 *   source's text copied to the agent on its first cite of it, anchoring, verdict, then the write:
 *   session, citation, context, run, result and chain entries in one transaction), 8 agents at
 *   once, each in its own process with its own login and connection, as `evidesk mcp --database`
 *   runs it (team-cite-child.ts); the same 8 in this one process too, labelled as such.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices, type Services } from '../electron/services/create-services.ts';
import { migratePostgres } from '../electron/services/store/postgres/migrate.ts';
import { PgStore, type PgNewSource, type SourceKind } from '../electron/services/store/postgres/pg-store.ts';
import { ensureProject, grantMember } from '../electron/services/store/postgres/team.ts';
import type { SourceRow } from '../electron/services/store/sources-store.ts';
import { pgEvidenceStore } from '../electron/services/store/postgres/pg-evidence-store.ts';
import { createSharedServices } from '../electron/services/shared-services.ts';
import { rng } from '../test/support/random.ts';
import { startTestPostgres } from '../test/support/postgres.ts';
import { BENCH_PLATFORM } from './bench-platform.ts';
import type { CiteJob, CiteTimes } from './team-cite-child.ts';
import { percentile, type Bench, type BenchSection, type Figure } from './report.ts';
import { progress, searchSection } from './team-search.ts';
import { passageQuotes, type PassageQuote } from './passage-quotes.ts';

// EVIDESK_CORPUS: the corpus folder when the checkout is not beside ../shared (a worktree).
const CORPUS = process.env.EVIDESK_CORPUS ?? path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpus', 'docs');
const CLIENTS = 8;
const CITES_PER_CLIENT = Number(process.env.EVIDESK_TEAM_BENCH_CITES ?? 30);

function inputs(root: string): { paths: string[]; note: string } {
  // EVIDESK_TEAM_BENCH_GENERATED=1: the generated files even when the corpus is there (a quick run).
  if (fs.existsSync(CORPUS) && process.env.EVIDESK_TEAM_BENCH_GENERATED !== '1') return { paths: [CORPUS], note: `corpus: ${fs.readdirSync(CORPUS).length} files in ${CORPUS}` };
  const docs = path.join(root, 'docs');
  fs.mkdirSync(docs, { recursive: true });
  const r = rng(13);
  const words = 'ledger audit clause tenant invoice notice period payment board minutes quorum motion carried revenue margin'.split(' ');
  for (let i = 0; i < 30; i++) {
    const lines = Array.from({ length: 400 }, (_, l) => `${Array.from({ length: 12 }, () => words[Math.floor(r() * words.length)]).join(' ')} (${i}.${l}).`);
    fs.writeFileSync(path.join(docs, `minutes-${i}.txt`), `${lines.join('\n')}\n`);
  }
  return { paths: [docs], note: 'the corpus is absent: 30 generated text files instead' };
}

type Quote = PassageQuote;

/**
 * Runs each job in a child process (team-cite-child.ts): all started and connected first, then
 * told to begin at once; their times as they report them.
 */
async function citeInChildren(jobs: CiteJob[], root: string): Promise<CiteTimes[]> {
  const children = jobs.map((job, c) => {
    const file = path.join(root, `cite-job-${c}-${job.session}.json`);
    fs.writeFileSync(file, JSON.stringify(job));
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'team-cite-child.ts'), file], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        if (out.includes('@@READY@@')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`a bench agent exited (${code}) before it was ready`)));
    });
    const done = new Promise<CiteTimes>((resolve, reject) =>
      child.once('exit', (code) => {
        const at = out.lastIndexOf('@@CITES@@');
        if (code !== 0 || at < 0) reject(new Error(`a bench agent exited (${code}) without its times`));
        else resolve(JSON.parse(out.slice(at + '@@CITES@@'.length)) as CiteTimes);
      }),
    );
    return { child, ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const { child } of children) child.stdin.end('go\n');
  return Promise.all(children.map((c) => c.done));
}

/** Runs `clients` loops at once, each timing its calls one after another; all latencies, sorted. */
async function concurrently(clients: number, perClient: number, call: (client: number, i: number) => Promise<void>): Promise<number[]> {
  const ms: number[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < perClient; i++) {
        const t0 = performance.now();
        await call(c, i);
        ms.push(performance.now() - t0);
      }
    }),
  );
  return ms.sort((a, b) => a - b);
}

const p95 = (name: string, ms: number[], goal?: number): Figure => ({
  name,
  value: percentile(ms, 95),
  unit: 'ms',
  ...(goal !== undefined ? { goal: { op: '<=' as const, value: goal, of: 'value' as const } } : {}),
});

/** The sources SQLite stored, as PostgreSQL stores them (NUL, which PostgreSQL text cannot hold, as U+FFFD like `workspace migrate`). */
export function asPgSource(services: Services, s: SourceRow, pgIds: Map<number, number>): PgNewSource {
  return {
    sha256: s.sha256,
    kind: s.kind as SourceKind,
    fileName: s.file_name,
    byteSize: s.byte_size,
    pageCount: s.page_count,
    title: s.title,
    extractionMethod: s.extraction_method,
    warnings: JSON.parse(s.warnings) as unknown[],
    predecessorId: s.predecessor_id === null ? null : (pgIds.get(s.predecessor_id) ?? null),
    segments: services.sources.segments(s.id).map((g) => ({
      text: g.text.replaceAll('\u0000', '\uFFFD'),
      locator: JSON.parse(g.locator) as unknown,
      page: g.page,
      // Every place a claimed locator is checked against: without lines, a claimed line could not be found wrong.
      pageLabel: g.page_label,
      paragraph: g.paragraph,
      lineStart: g.line_start,
      lineEnd: g.line_end,
      headingPath: g.heading_path,
      blockType: g.block_type,
      // A PDF's text-item geometry, stored as the shared ingest stores it (a third again of its text).
      itemStarts: g.item_starts,
    })),
    // The admin's own copy of the file, so that its health check has files to look at.
    ...(s.current_path !== null && fs.existsSync(s.current_path) ? { path: pathOf(s.current_path) } : {}),
  };
}

function pathOf(file: string): { path: string; size: number; mtimeMs: number } {
  const stat = fs.statSync(file);
  return { path: file, size: stat.size, mtimeMs: stat.mtimeMs };
}

export const bench: Bench = async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-team-bench-'));
  const workspace = path.join(root, 'workspace');
  const { paths, note } = inputs(root);
  const services = createServices(BENCH_PLATFORM, workspace);
  const server = await startTestPostgres();
  const owner = await server.owner();
  const stores: PgStore[] = [];
  try {
    // SQLite: ingest (extraction and store), search, health, cite with 8 sessions at once.
    let t0 = performance.now();
    await services.ingest.ingest({ paths, ocr: false });
    const sqliteIngestMs = performance.now() - t0;
    progress('corpus ingested on SQLite');
    const sources = services.sources.list().sort((a, b) => a.id - b.id);
    const cited = passageQuotes(services.sources, CLIENTS * CITES_PER_CLIENT, 5);
    t0 = performance.now();
    const health = await services.dispatch('sources.check', {});
    if (!health.ok) throw new Error(health.error.message);
    const healthMs = performance.now() - t0;
    const statuses = new Map<string, number>();
    const sqliteCite = await concurrently(CLIENTS, CITES_PER_CLIENT, async (c, i) => {
      const q = cited[(c * CITES_PER_CLIENT + i) % cited.length];
      if (!q) return;
      const locator = q.page !== null ? { page: q.page } : q.line !== null ? { line: q.line } : {};
      const r = await services.dispatch('citations.cite', {
        claim: q.text,
        quote_context: q.text,
        verbatim_quote: q.text,
        source: q.sourceId,
        locator,
        context: { session_id: `bench-${c}`, agent_id: `agent-${c}`, user_id: 'bench', project_id: 'bench' },
      });
      const status = r.ok ? String((r.value as { status: string }).status) : `error ${r.error.code}`;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });

    // PostgreSQL: the same sources stored by an admin, then 8 agents citing at once.
    await migratePostgres(owner);
    await ensureProject(owner, 'bench', 'Bench');
    const grant = async (name: string, level: 'admin' | 'agent'): Promise<string> => {
      const login = `${server.loginPrefix}${name}`;
      await grantMember(owner, { login, password: name, level, projects: level === 'agent' ? ['bench'] : [] });
      return server.urlFor(login, name);
    };
    const connect = async (url: string): Promise<PgStore> => {
      const store = await PgStore.connect(url, { max: 1 });
      stores.push(store);
      return store;
    };
    const admin = await connect(await grant('admin', 'admin'));
    const pgIds = new Map<number, number>();
    t0 = performance.now();
    for (const s of sources) {
      const snapshot = path.join(workspace, s.snapshot ?? '');
      const added = await admin.addSource(asPgSource(services, s, pgIds), () => fs.createReadStream(snapshot, { highWaterMark: 1 << 20 }));
      pgIds.set(s.id, added.id);
    }
    const pgStoreMs = performance.now() - t0;
    progress('corpus stored on PostgreSQL');
    const agentUrls: string[] = [];
    // One after another: the grants share the owner's one connection.
    for (let c = 0; c < CLIENTS; c++) agentUrls.push(await grant(`agent_${c}`, 'agent'));
    const pgStatuses = new Map<string, number>();
    const quotesOf = (c: number) =>
      Array.from({ length: CITES_PER_CLIENT }, (_, i) => cited[(c * CITES_PER_CLIENT + i) % cited.length])
        .filter((q): q is Quote => q !== undefined && pgIds.has(q.sourceId))
        .map((q) => ({ ...q, sourceId: pgIds.get(q.sourceId) ?? 0 }));
    const cold: number[] = [];
    /** Each agent process's first cite: also its code's first run (compiled, caches empty). */
    const processFirst: number[] = [];
    /** The 8 agents' cites but each process's first. */
    const afterFirst: number[] = [];
    // Each agent in a process of its own, as `evidesk mcp --database` runs them: one after another
    // there, its anchoring and verdict, and its first cite of a source (the text copied to it).
    const pgCiteOf = async (clients: number, round: string): Promise<number[]> => {
      const times = await citeInChildren(
        Array.from({ length: clients }, (_, c) => ({
          url: agentUrls[c] ?? '',
          workspaceDir: path.join(root, `agent-${round}-${c}`),
          session: `bench-pg-${round}-${c}`,
          agentId: `agent-${c}`,
          quotes: quotesOf(c),
        })),
        root,
      );
      for (const t of times) {
        cold.push(...t.coldMs);
        if (t.ms[0] !== undefined) processFirst.push(t.ms[0]);
        if (clients > 1) afterFirst.push(...t.ms.slice(1));
        for (const [k, v] of Object.entries(t.statuses)) pgStatuses.set(k, (pgStatuses.get(k) ?? 0) + v);
      }
      return times.flatMap((t) => t.ms).sort((a, b) => a - b);
    };
    // One agent alone first: the whole call with no one to take turns with on the chain's lock.
    const pgAlone = await pgCiteOf(1, 'alone');
    const pgCite = await pgCiteOf(CLIENTS, 'all');
    // The same 8 agents in this one process (as this bench ran them before): their anchoring and
    // verdicts queue on its one thread, which `evidesk mcp --database` never does.
    const agents: PgStore[] = [];
    for (const url of agentUrls) agents.push(await connect(url));
    const shared = agents.map((a, c) => createSharedServices(a, path.join(root, `agent-inproc-${c}`)));
    const pgInProcess = await concurrently(CLIENTS, CITES_PER_CLIENT, async (c, i) => {
      const q = quotesOf(c)[i];
      const agent = shared[c];
      if (!q || !agent) return;
      await agent.dispatch('citations.cite', {
        claim: q.text,
        quote_context: q.text,
        verbatim_quote: q.text,
        source: q.sourceId,
        locator: q.page !== null ? { page: q.page } : q.line !== null ? { line: q.line } : {},
        context: { session_id: `bench-pg-inproc-${c}`, agent_id: `agent-${c}`, user_id: 'bench', project_id: 'bench' },
      });
    });
    // Closing an agent's services closes its connection: the finally below leaves those alone.
    for (const s of shared) await s.close();
    stores.splice(0, stores.length, ...stores.filter((s) => !agents.includes(s)));
    progress('cited on both');
    const chain = await admin.verifyChain();
    // The health check through the same service, on the admin's paths in the shared workspace.
    const pgServices = createServices(BENCH_PLATFORM, path.join(root, 'member'), { evidence: pgEvidenceStore(admin) });
    let pgHealthMs: number;
    try {
      t0 = performance.now();
      const pgHealth = await pgServices.dispatch('sources.check', {});
      if (!pgHealth.ok) throw new Error(pgHealth.error.message);
      pgHealthMs = performance.now() - t0;
    } finally {
      pgServices.close();
    }
    const searched = await searchSection(server, root);

    const segments = sources.reduce((n, s) => n + s.segment_count, 0);
    return [
      {
        title: `team: shared PostgreSQL beside local SQLite, same corpus, same run (${sources.length} sources, ${segments.toLocaleString('en')} segments)`,
        figures: [
          { name: 'ingest on SQLite, whole corpus (extraction and store)', value: sqliteIngestMs, unit: 'ms' },
          { name: 'ingest store step on PostgreSQL, same sources (snapshots streamed in chunks, segments, paths, chain)', value: pgStoreMs, unit: 'ms' },
          p95(`cite p95 on SQLite, ${CLIENTS} sessions at once, whole call with verification (${sqliteCite.length} calls)`, sqliteCite, 80),
          p95(`cite p95 on PostgreSQL, ${CLIENTS} agents at once (each its own process, login and connection), whole call with verification (${pgCite.length} calls)`, pgCite, 80),
          { name: 'cite p50 on PostgreSQL, whole call', value: percentile(pgCite, 50), unit: 'ms' },
          { name: `cite p95 on PostgreSQL, one agent alone (its own process), whole call (${pgAlone.length} calls)`, value: percentile(pgAlone, 95), unit: 'ms' },
          { name: `cite p50 on PostgreSQL, an agent's first cite of a source (its text copied to the agent, ${cold.length} calls, in the figures above)`, value: percentile(cold.sort((a, b) => a - b), 50), unit: 'ms' },
          { name: `cite p50 on PostgreSQL, an agent process's first cite (its first of a source too, ${processFirst.length} calls, in the figures above)`, value: percentile(processFirst.sort((a, b) => a - b), 50), unit: 'ms' },
          { name: `cite p95 on PostgreSQL, ${CLIENTS} agents at once, each process's first cite left out (${afterFirst.length} calls)`, value: percentile(afterFirst.sort((a, b) => a - b), 95), unit: 'ms' },
          { name: `cite p95 on PostgreSQL, the same ${CLIENTS} agents all in this one process (their CPU queued on one thread, not as deployed; ${pgInProcess.length} calls)`, value: percentile(pgInProcess, 95), unit: 'ms' },
          { name: `health check on SQLite, ${sources.length} sources`, value: healthMs, unit: 'ms' },
          { name: `health check on PostgreSQL, ${sources.length} sources (the admin's paths)`, value: pgHealthMs, unit: 'ms' },
        ],
        notes: [
          note,
          `SQLite cite statuses: ${[...statuses].map(([k, v]) => `${k} ${v}`).join(', ')}`,
          `PostgreSQL cite statuses: ${[...pgStatuses].map(([k, v]) => `${k} ${v}`).join(', ')}`,
          `PostgreSQL audit chain after the run: ${chain.entries} entries, ${chain.ok ? 'verified' : 'BROKEN'}`,
          `load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} on ${os.cpus().length} cores (the agents and the server share them)`,
          "PostgreSQL is an embedded server on this machine (fsync off, as in the tests); a server across a network adds its round trips (5 per warm cite: the refresh's two reads and the custom-source check, then the write's two, BEGIN with the cite's call and the chain append with the COMMIT)",
        ],
      },
      searched,
    ] satisfies BenchSection[];
  } finally {
    for (const s of stores) await s.close();
    await owner.end();
    await server.close();
    services.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
};
