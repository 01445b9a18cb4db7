// The team bench's agent (issue 13): one member's cite service over its own login and connection,
// in a process of its own, as `evidesk mcp --database` runs one per agent. It connects, says
// @@READY@@, waits for a line on stdin (so that all agents start at once), cites its quotes one
// after another and prints @@CITES@@ with each call's time, whether it was its first cite of that
// source (the source's text copied to it) and the statuses.
// node bench/team-cite-child.ts <job.json>
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { createSharedServices } from '../electron/services/shared-services.ts';
import { PgStore } from '../electron/services/store/postgres/pg-store.ts';
import { warmVerifier } from '../electron/services/verification/verifier-warmup.ts';

export interface CiteJob {
  url: string;
  workspaceDir: string;
  /** Session key of this agent's cites (a member may not write into another member's session). */
  session: string;
  agentId: string;
  quotes: { sourceId: number; page: number | null; line: number | null; text: string }[];
}

export interface CiteTimes {
  ms: number[];
  /** Times of the calls that were this agent's first cite of their source. */
  coldMs: number[];
  statuses: Record<string, number>;
}

const job = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as CiteJob;
const store = await PgStore.connect(job.url, { max: 1 });
const shared = createSharedServices(store, job.workspaceDir);
// As `evidesk mcp` does while it waits for the agent's first call.
await Promise.all([warmVerifier(), shared.warmCite()]);
process.stdout.write('@@READY@@\n');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();

const out: CiteTimes = { ms: [], coldMs: [], statuses: {} };
const seen = new Set<number>();
for (const q of job.quotes) {
  const t0 = performance.now();
  const r = await shared.dispatch('citations.cite', {
    claim: q.text,
    quote_context: q.text,
    verbatim_quote: q.text,
    source: q.sourceId,
    locator: q.page !== null ? { page: q.page } : q.line !== null ? { line: q.line } : {},
    context: { session_id: job.session, agent_id: job.agentId, user_id: 'bench', project_id: 'bench' },
  });
  const ms = performance.now() - t0;
  out.ms.push(ms);
  if (!seen.has(q.sourceId)) {
    seen.add(q.sourceId);
    out.coldMs.push(ms);
  }
  const status = r.ok ? String((r.value as { status: string }).status) : `error ${r.error.code}`;
  out.statuses[status] = (out.statuses[status] ?? 0) + 1;
}
await shared.close();
process.stdout.write(`@@CITES@@${JSON.stringify(out)}\n`);
