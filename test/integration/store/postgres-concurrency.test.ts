// Many writers at once on one shared workspace (issue 13, Done-when 2): 8 clients, each a process
// of its own with its own login role, for EVIDESK_TEAM_CONCURRENCY_SECONDS (default 60): 4 agents
// citing in their own sessions (two projects), 2 reviewers deciding, 2 admins ingesting, the same
// bytes by both at the same moment. Afterwards: every acknowledged write is there exactly once and
// nothing else is; the same bytes are one source; the audit chain is one chain the walk accepts
// (PgStore.verifyChain, and `evidesk --database URL audit verify` as an auditor); every client's
// change feed announced every client's writes, once each and nothing uncommitted; and what each
// client sees through row-level security is exactly what its level and projects allow.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel } from '../../../electron/services/store/postgres/schema-access.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';
import { runCli } from '../../../electron/cli/main.ts';

const SECONDS = Number(process.env.EVIDESK_TEAM_CONCURRENCY_SECONDS ?? 60);
// A ceiling, not a timing assertion: starting 8 processes, the run, convergence and the checks.
const CEILING_MS = (SECONDS + 150) * 1000;
const clientScript = path.resolve(import.meta.dirname, '../../support/pg-team-client.ts');

const ctx = withPgTeam();

interface ClientSpec {
  name: string;
  kind: 'citer' | 'reviewer' | 'ingester';
  level: AccessLevel;
  projects: string[];
}

const CLIENTS: ClientSpec[] = [
  { name: 'citer_1', kind: 'citer', level: 'agent', projects: ['alpha'] },
  { name: 'citer_2', kind: 'citer', level: 'agent', projects: ['alpha'] },
  { name: 'citer_3', kind: 'citer', level: 'agent', projects: ['beta'] },
  { name: 'citer_4', kind: 'citer', level: 'agent', projects: ['beta'] },
  { name: 'reviewer_1', kind: 'reviewer', level: 'reviewer', projects: ['alpha'] },
  { name: 'reviewer_2', kind: 'reviewer', level: 'reviewer', projects: ['beta'] },
  { name: 'ingester_1', kind: 'ingester', level: 'admin', projects: [] },
  { name: 'ingester_2', kind: 'ingester', level: 'admin', projects: [] },
];

interface Ack {
  client: string;
  table: string;
  id: number;
  token?: string;
  citationId?: number;
  file?: string;
  sha256?: string;
  created?: boolean;
}

interface Report {
  missing: string[];
  duplicates: string[];
  feed: string[];
  visible: Record<string, number[]>;
}

interface Running {
  spec: ClientSpec;
  send(c: Record<string, unknown>): void;
  next(type: string): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  kill(): void;
}

const acks: Ack[] = [];
const errors: { client: string; code: unknown; message: unknown }[] = [];
const reports = new Map<string, Report>();
const stopped = new Map<string, { writes: number; failures: number }>();
let seededSources: number[] = [];
let chainBefore = 0;

function start(spec: ClientSpec, url: string): Running {
  const child = spawn(process.execPath, [clientScript, spec.kind, url, spec.name, spec.projects[0] ?? ''], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'close', not 'exit': the last lines of stdout (the report) are read before a client counts as gone.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waiting = new Map<string, (e: Record<string, unknown>) => void>();
  const early = new Map<string, Record<string, unknown>>();
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const e = JSON.parse(line) as Record<string, unknown>;
    const type = String(e.type);
    if (type === 'ack') acks.push({ client: spec.name, ...(e as unknown as Omit<Ack, 'client'>) });
    else if (type === 'error') errors.push({ client: spec.name, code: e.code, message: e.message });
    const w = waiting.get(type);
    if (w) {
      waiting.delete(type);
      w(e);
    } else early.set(type, e);
  });
  return {
    spec,
    exited,
    kill: () => void (child.exitCode === null && child.kill('SIGKILL')),
    send: (c) => child.stdin.write(`${JSON.stringify(c)}\n`),
    next: (type) => {
      const got = early.get(type);
      if (got) {
        early.delete(type);
        return Promise.resolve(got);
      }
      return new Promise((resolve, reject) => {
        waiting.set(type, resolve);
        void exited.then((code) => reject(new Error(`${spec.name} exited (${code}) before "${type}": ${stderr}`)));
      });
    },
  };
}

async function ownerIds(sql: string, params: unknown[] = []): Promise<number[]> {
  return (await ctx.team.owner.query<{ id: number }>(sql, params)).rows.map((r) => r.id);
}

const key = (a: { table: string; id: number }) => `${a.table}:${a.id}`;
const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

beforeAll(async () => {
  for (let i = 0; i < 3; i++) {
    const doc = pgDocument(`seed-${i}`);
    seededSources.push((await ctx.team.admin.addSource(doc.src, doc.pieces())).id);
  }
  chainBefore = (await ctx.team.auditor.verifyChain()).entries;
  const clients: Running[] = [];
  for (const spec of CLIENTS) clients.push(start(spec, await ctx.team.memberUrl(spec.name, spec.level, spec.projects)));
  try {
    await Promise.all(clients.map((c) => c.next('ready')));
    // Every feed listens before anyone writes; all start on the same clock tick.
    const startAt = Date.now() + 500;
    for (const c of clients) c.send({ type: 'go', startAt, durationMs: SECONDS * 1000, sourceIds: seededSources });
    for (const c of clients) stopped.set(c.spec.name, (await c.next('stopped')) as unknown as { writes: number; failures: number });
    const keys = acks.map(key);
    for (const c of clients) c.send({ type: 'converge', keys });
    for (const c of clients) reports.set(c.spec.name, (await c.next('report')) as unknown as Report);
    await Promise.all(clients.map((c) => c.exited));
    const n = (table: string) => acks.filter((a) => a.table === table).length;
    console.info(`team run, ${SECONDS} s: ${n('citations')} citations, ${n('review_decisions')} decisions, ${n('sources')} sources acknowledged (${acks.filter((a) => a.table === 'sources' && !a.created).length} of them the same bytes as another's)`);
  } finally {
    // Only a run that failed midway leaves clients behind.
    for (const c of clients) c.kill();
  }
}, CEILING_MS);

describe(`8 clients writing at once for ${SECONDS} s`, () => {
  it('acknowledged every write and failed none', () => {
    expect(errors).toEqual([]);
    for (const spec of CLIENTS) expect(stopped.get(spec.name)).toMatchObject({ failures: 0 });
    // Each kind did real work (a client that wrote nothing would make the rest hollow).
    for (const table of ['citations', 'review_decisions', 'sources']) expect(acks.filter((a) => a.table === table).length).toBeGreaterThan(CLIENTS.length);
  });

  it('lost and duplicated nothing: each acknowledged citation and decision is there exactly once, and nothing else', async () => {
    const citationAcks = acks.filter((a) => a.table === 'citations');
    const answerIds = acks.filter((a) => a.table === 'answers').map((a) => a.id);
    expect(answerIds).toHaveLength(4);
    const stored = await ctx.team.owner.query<{ id: number; claim: string }>('SELECT id, claim FROM citations WHERE answer_id = ANY ($1) ORDER BY id', [answerIds]);
    expect(stored.rows).toEqual(sorted(citationAcks.map((a) => a.id)).map((id) => ({ id, claim: citationAcks.find((a) => a.id === id)?.token })));
    expect(new Set(stored.rows.map((r) => r.claim)).size).toBe(stored.rows.length);
    expect(await ownerIds('SELECT citation_id AS id FROM citation_contexts ORDER BY citation_id')).toEqual(stored.rows.map((r) => r.id));
    // Each agent's citations are numbered 0, 1, 2… in its session: none lost in between.
    const gaps = await ctx.team.owner.query('SELECT answer_id FROM citations GROUP BY answer_id HAVING max(ordinal) + 1 <> count(*) OR count(DISTINCT ordinal) <> count(*)');
    expect(gaps.rowCount).toBe(0);

    const decisionAcks = acks.filter((a) => a.table === 'review_decisions');
    const decisions = await ctx.team.owner.query<{ id: number; note: string; citation_id: number; supersedes_id: number | null }>('SELECT id, note, citation_id, supersedes_id FROM review_decisions ORDER BY id');
    expect(decisions.rows.map((r) => ({ id: r.id, note: r.note, citation: r.citation_id }))).toEqual(
      sorted(decisionAcks.map((a) => a.id)).map((id) => {
        const a = decisionAcks.find((d) => d.id === id);
        return { id, note: a?.token, citation: a?.citationId };
      }),
    );
    // Each decision supersedes the one before it on the same citation: one line per citation.
    const lastOn = new Map<number, number>();
    for (const d of decisions.rows) {
      expect(d.supersedes_id).toBe(lastOn.get(d.citation_id) ?? null);
      lastOn.set(d.citation_id, d.id);
    }
  });

  it('made one source of the same bytes added by both ingesters at the same moment', async () => {
    const sourceAcks = acks.filter((a) => a.table === 'sources');
    const bySha = new Map<string, Ack[]>();
    for (const a of sourceAcks) bySha.set(a.sha256 ?? '', [...(bySha.get(a.sha256 ?? '') ?? []), a]);
    const shared = [...bySha.values()].filter((list) => list[0]?.file?.startsWith('shared-'));
    expect(shared.length).toBeGreaterThan(1);
    for (const list of shared) {
      expect(list.map((a) => a.client).sort()).toEqual(['ingester_1', 'ingester_2']);
      expect(new Set(list.map((a) => a.id)).size).toBe(1);
      expect(list.filter((a) => a.created)).toHaveLength(1);
    }
    const rows = await ctx.team.owner.query<{ id: number; sha256: string }>('SELECT id, sha256 FROM sources WHERE id <> ALL ($1) ORDER BY id', [seededSources]);
    expect(rows.rows).toEqual(sorted(new Set(sourceAcks.map((a) => a.id))).map((id) => ({ id, sha256: sourceAcks.find((a) => a.id === id)?.sha256 })));
    const chunks = await ctx.team.owner.query('SELECT sha256 FROM blob_chunks GROUP BY sha256 HAVING count(*) <> count(DISTINCT ordinal)');
    expect(chunks.rowCount).toBe(0);
  });

  it('kept one audit chain, one entry per row written, that the walk accepts', async () => {
    const report = await ctx.team.auditor.verifyChain();
    expect(report.break).toBeUndefined();
    expect(report.ok).toBe(true);
    expect(report.entries).toBe(report.evidenceRows);
    const created = acks.filter((a) => a.table !== 'sources' || a.created).length;
    const contexts = acks.filter((a) => a.table === 'citations').length;
    expect(report.entries).toBe(chainBefore + created + contexts);
    const seqs = await ctx.team.owner.query<{ ok: boolean }>('SELECT bool_and(seq = rn) AS ok FROM (SELECT seq, row_number() OVER (ORDER BY id) AS rn FROM audit_log) s');
    expect(seqs.rows[0]?.ok).toBe(true);
    // The command line accepts the same chain, connected as an auditor of its own.
    const out: string[] = [];
    const code = await runCli(['audit', 'verify', '--json'], { out: (t) => out.push(t), err: (t) => out.push(t) }, { EVIDESK_DATABASE_URL: await ctx.team.memberUrl('cli_auditor', 'auditor', []) });
    expect(code, out.join('\n')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({ ok: true, rows: report.entries, head: report.head });
  });

  it("converged: every client's feed announced every client's writes once, and nothing uncommitted", async () => {
    const committed = new Set<string>();
    for (const table of ['sources', 'answers', 'agent_sessions', 'citations', 'review_decisions']) {
      for (const id of await ownerIds(`SELECT id FROM ${table}`)) committed.add(`${table}:${id}`);
    }
    for (const spec of CLIENTS) {
      const r = reports.get(spec.name);
      expect(r, spec.name).toBeDefined();
      expect(r?.missing, `${spec.name} never heard of these`).toEqual([]);
      expect(r?.duplicates, `${spec.name} heard these twice`).toEqual([]);
      expect(r?.feed.filter((k) => !committed.has(k)), `${spec.name} heard of rows not committed`).toEqual([]);
    }
  });

  it('shows each client exactly what its level and projects allow (row-level security)', async () => {
    const all = async (table: string) => ownerIds(`SELECT id FROM ${table} ORDER BY id`);
    const inProject = async (p: string) => ({
      sources: await all('sources'),
      answers: await ownerIds('SELECT id FROM answers WHERE project_key = $1 ORDER BY id', [p]),
      agent_sessions: await ownerIds('SELECT id FROM agent_sessions WHERE project_id = $1 ORDER BY id', [p]),
      citations: await ownerIds('SELECT c.id FROM citations c JOIN answers a ON a.id = c.answer_id WHERE a.project_key = $1 ORDER BY c.id', [p]),
      review_decisions: await ownerIds('SELECT d.id FROM review_decisions d JOIN citations c ON c.id = d.citation_id JOIN answers a ON a.id = c.answer_id WHERE a.project_key = $1 ORDER BY d.id', [p]),
    });
    const everything = { sources: await all('sources'), answers: await all('answers'), agent_sessions: await all('agent_sessions'), citations: await all('citations'), review_decisions: await all('review_decisions') };
    const expected = { alpha: await inProject('alpha'), beta: await inProject('beta') };
    expect(expected.alpha.citations.length).toBeGreaterThan(0);
    expect(expected.beta.citations.length).toBeGreaterThan(0);
    for (const spec of CLIENTS) {
      const want = spec.level === 'admin' ? everything : expected[spec.projects[0] as 'alpha' | 'beta'];
      expect(reports.get(spec.name)?.visible, spec.name).toEqual(want);
    }
  });
});
