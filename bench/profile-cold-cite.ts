// Developer tool (not a bench, run.ts skips it): where an agent's first cite of a big source goes
// on PostgreSQL (issue 13). Ingests the named corpus files once into /tmp/evidesk-prof-cold (kept
// between runs), stores them on a fresh embedded PostgreSQL, then times, for fresh agents, the
// copy of the source's text (the read, the inserts into the copy) and the whole first and second cite.
// node bench/profile-cold-cite.ts [r-fullrefman.pdf octave.pdf ...]
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { createServices } from '../electron/services/create-services.ts';
import { createSharedServices } from '../electron/services/shared-services.ts';
import { migratePostgres } from '../electron/services/store/postgres/migrate.ts';
import { pgEvidenceStore } from '../electron/services/store/postgres/pg-evidence-store.ts';
import { PgStore } from '../electron/services/store/postgres/pg-store.ts';
import { ensureProject, grantMember } from '../electron/services/store/postgres/team.ts';
import { SEGMENT_COLUMNS } from '../electron/services/store/postgres/pg-sources.ts';
import { SourceMirror } from '../electron/services/store/source-mirror.ts';
import { startTestPostgres } from '../test/support/postgres.ts';
import { BENCH_PLATFORM } from './bench-platform.ts';
import { asPgSource } from './team.bench.ts';

// EVIDESK_CORPUS: the corpus folder when the checkout is not beside ../shared (a worktree).
const CORPUS = process.env.EVIDESK_CORPUS ?? path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpus', 'docs');
const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['r-fullrefman.pdf', 'octave.pdf'];
const DIR = `/tmp/evidesk-prof-cold-${files.join('+').replace(/[^a-z0-9+.-]/gi, '')}`;
const workspace = path.join(DIR, 'workspace');
const services = createServices(BENCH_PLATFORM, workspace);
if (services.sources.list().length === 0) await services.ingest.ingest({ paths: files.map((f) => path.join(CORPUS, f)), ocr: false });
const sources = services.sources.list().sort((a, b) => a.id - b.id);

const server = await startTestPostgres();
const owner = await server.owner();
await migratePostgres(owner);
await ensureProject(owner, 'bench', 'Bench');
const connect = async (name: string, level: 'admin' | 'agent'): Promise<PgStore> => {
  const login = `${server.loginPrefix}${name}`;
  await grantMember(owner, { login, password: name, level, projects: level === 'agent' ? ['bench'] : [] });
  return PgStore.connect(server.urlFor(login, name), { max: 1 });
};
const admin = await connect('admin', 'admin');
const pgIds = new Map<number, number>();
for (const s of sources) {
  const added = await admin.addSource(asPgSource(services, s, pgIds), () => fs.createReadStream(path.join(workspace, s.snapshot ?? '')));
  pgIds.set(s.id, added.id);
}

// EVIDESK_PROFILE=1: a CPU profile of the process's first cite (its code's first run), the rest timed only.
const profiler = process.env.EVIDESK_PROFILE === '1' ? new Session() : null;
async function profiled<T>(fn: () => Promise<T>): Promise<T> {
  if (!profiler) return fn();
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
  await profiler.post('Profiler.start');
  const out = await fn();
  const { profile } = await profiler.post('Profiler.stop');
  profiler.disconnect();
  fs.writeFileSync(path.join(DIR, 'first-cite.cpuprofile'), JSON.stringify(profile));
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const dt = new Map<number, number>();
  profile.samples?.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const keyOf = (n: (typeof profile.nodes)[number]): string => `${n.callFrame.functionName || '(anonymous)'} ${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const walk = (id: number, above: Set<string>): number => {
    const n = byId.get(id);
    if (!n) return 0;
    const key = keyOf(n);
    const own = (dt.get(id) ?? 0) / 1000;
    self.set(key, (self.get(key) ?? 0) + own);
    const inner = new Set(above).add(key);
    const sum = own + (n.children ?? []).reduce((acc, c) => acc + walk(c, inner), 0);
    if (!above.has(key)) total.set(key, (total.get(key) ?? 0) + sum);
    return sum;
  };
  walk(profile.nodes[0]?.id ?? 0, new Set());
  for (const [title, map] of [['self', self], ['total', total]] as const) {
    console.log(`  first cite, ${title} time (ms), top 20:`);
    for (const [k, v] of [...map].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`    ${v.toFixed(0).padStart(6)}  ${k}`);
  }
  return out;
}
const ms = (t0: number): string => `${(performance.now() - t0).toFixed(0)} ms`;
for (const s of sources) {
  const id = pgIds.get(s.id) ?? 0;
  const segs = services.sources.segments(s.id);
  const chars = segs.reduce((n, g) => n + g.text.length, 0);
  console.log(`\n${s.file_name}: ${segs.length} segments, ${(chars / 1e6).toFixed(2)} M characters`);
  for (let round = 0; round < 3; round++) {
    const agent = await connect(`agent_${s.id}_${round}`, 'agent');
    const evidence = pgEvidenceStore(agent);
    let t0 = performance.now();
    const mirror = new SourceMirror(evidence);
    const made = ms(t0);
    t0 = performance.now();
    await mirror.refresh();
    const refresh = ms(t0);
    t0 = performance.now();
    const rows = await evidence.sources.segments(id);
    const read = ms(t0);
    t0 = performance.now();
    await mirror.load(id);
    const load = ms(t0);
    // A search in the source indexes its text first: what every first cite paid before the index waited for a search.
    t0 = performance.now();
    mirror.search.candidateSegments('"the"', id, 1);
    const indexed = ms(t0);
    mirror.close();
    // The whole cite, cold then warm, through a fresh agent's services.
    const shared = createSharedServices(agent, path.join(DIR, `agent-${round}`));
    const quote = segs.find((g, i) => i > segs.length / 2 && g.text.length > 300)?.text.slice(100, 220) ?? '';
    const page = segs.find((g) => g.text.includes(quote))?.page ?? null;
    const cite = async (): Promise<string> => {
      const t = performance.now();
      const r = await shared.dispatch('citations.cite', { claim: quote, quote_context: quote, verbatim_quote: quote, source: id, locator: page === null ? {} : { page }, context: { session_id: `prof-${s.id}-${round}`, agent_id: 'prof', user_id: 'prof', project_id: 'bench' } });
      const status = r.ok ? String((r.value as { status: string }).status) : r.error.code;
      return `${ms(t)} (${status})`;
    };
    const cold = round === 0 && s === sources[0] ? await profiled(cite) : await cite();
    const warm = await cite();
    await shared.close();
    console.log(`  copy made (schema) ${made}; refresh ${refresh}; segments read ${read} (${rows.length} rows); read+insert into the copy ${load}; its full-text index (at the first search) ${indexed}; whole cite cold ${cold}, warm ${warm}`);
  }
}
// Ways to read a source's rows, each timed a few times over the biggest source.
{
  const agent = await connect('agent_reads', 'agent');
  const biggest = [...pgIds.values()][0] ?? 0;
  const cols = SEGMENT_COLUMNS;
  const ways: [string, () => Promise<number>][] = [
    ['rows as objects', async () => (await agent.pool.query(`SELECT ${cols} FROM segments WHERE source_id = $1 ORDER BY ordinal`, [biggest])).rows.length],
    ['rows as arrays', async () => (await agent.pool.query({ text: `SELECT ${cols} FROM segments WHERE source_id = $1 ORDER BY ordinal`, values: [biggest], rowMode: 'array' })).rows.length],
    [
      'one row of json',
      async () => {
        const r = await agent.pool.query<{ j: string }>(`SELECT json_agg(json_build_array(${cols}) ORDER BY ordinal)::text AS j FROM segments WHERE source_id = $1`, [biggest]);
        return (JSON.parse(r.rows[0]?.j ?? '[]') as unknown[]).length;
      },
    ],
  ];
  for (let round = 0; round < 3; round++) {
    const line: string[] = [];
    for (const [name, read] of ways) {
      const t0 = performance.now();
      const n = await read();
      line.push(`${name} ${ms(t0)} (${n})`);
    }
    console.log(`  reads: ${line.join('; ')}`);
  }
  await agent.close();
}
await admin.close();
await owner.end();
await server.close();
services.close();
