/**
 * `npm run bench -- cite-writes` (issue 13, Done-when 6): the write of a cite on PostgreSQL alone,
 * without the verification before it: the store's `citations.cite` (session, citation, context,
 * run, result and chain entries, one transaction) by 1 agent, then by 8 agents at once, each its
 * own login and connection. Also with 8 agents whose process is busy between writes (a few ms of
 * CPU per cite, as the anchoring before each write keeps the MCP server busy): a round trip a
 * writer waits on while holding the chain's lock then also waits for the other agents' CPU.
 * Round trips are counted on the agents' connections (one query message is one round trip).
 */
import pg from 'pg';
import { pgEvidenceStore } from '../electron/services/store/postgres/pg-evidence-store.ts';
import type { EvidenceStore, NewCite } from '../electron/services/store/evidence-store.ts';
import { pgDocument, pgTeam } from '../test/support/pg-team.ts';
import { startTestPostgres } from '../test/support/postgres.ts';
import { percentile, type Bench, type Figure } from './report.ts';

const CLIENTS = 8;
/** The project pgTeam's agents cite in. */
const PROJECT = 'alpha';
const CITES = Number(process.env.EVIDESK_CITE_WRITES ?? 40);
/** CPU each busy agent spends before each write (the anchoring it stands in for). */
const BUSY_MS = 4;

/** Query messages sent on any connection of this process, and each one's time by its first words. */
const counted = { messages: 0, byStatement: new Map<string, number[]>() };
const send = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  counted.messages++;
  const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '');
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 48);
  const t0 = performance.now();
  const out = send.apply(this, args);
  if (out instanceof Promise) {
    void out.then(
      () => {
        const list = counted.byStatement.get(key) ?? [];
        list.push(performance.now() - t0);
        counted.byStatement.set(key, list);
      },
      () => undefined,
    );
  }
  return out;
} as typeof pg.Client.prototype.query;

/** Each statement's count, p50 and p95 since the last call (which starts them afresh). */
function statementTimes(): string[] {
  const out = [...counted.byStatement].map(([k, v]) => {
    const sorted = v.sort((a, b) => a - b);
    return `${k}: ${v.length} × p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms`;
  });
  counted.byStatement.clear();
  return out;
}

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

function cite(sourceId: number, session: string, agent: string, k: number): NewCite {
  const quote = `sentence ${k} says the quarterly revenue grew by ${k % 97} percent.`;
  return {
    session: { sessionKey: session, agentId: agent, userId: 'bench', projectId: PROJECT },
    citation: { claim: `Claim ${k}: revenue grew.`, quote, context: 'revenue', sourceId, unknownReference: null, claimedLocator: { paragraph: 1 }, method: 'direct_quote', confidence: null, supersedesId: null },
    customSourceId: null,
    details: { k },
    result: {
      status: 'verified', verdict: 'supported', score: 0.97, confidence: 0.91, sourceId, segmentId: null, startOffset: 10, endSegmentId: null, endOffset: 60,
      firstEnd: null, lastStart: null, page: null, pageLabel: null, matchMethod: 'exact', matchedText: quote, quote, prefix: 'The ', suffix: ' And', notes: [],
    },
  };
}

async function writes(agents: readonly EvidenceStore[], sourceId: number, round: string, busyMs: number): Promise<{ ms: number[]; perCite: number }> {
  const before = counted.messages;
  const ms: number[] = [];
  await Promise.all(
    agents.map(async (agent, c) => {
      for (let i = 0; i < CITES; i++) {
        if (busyMs > 0) busy(busyMs);
        const t0 = performance.now();
        await agent.citations.cite(cite(sourceId, `${round}-${c}`, agent.member.login, i), new Date().toISOString());
        ms.push(performance.now() - t0);
        // Another agent's turn on this process (as between MCP requests).
        await new Promise((r) => setImmediate(r));
      }
    }),
  );
  return { ms: ms.sort((a, b) => a - b), perCite: (counted.messages - before) / (agents.length * CITES) };
}

export const bench: Bench = async () => {
  const server = await startTestPostgres();
  const team = await pgTeam(server);
  try {
    const admin = team.admin;
    const doc = pgDocument('cite-writes', 8192);
    const { id: sourceId } = await admin.addSource(doc.src, doc.pieces());
    const agents: EvidenceStore[] = [];
    for (let c = 0; c < CLIENTS; c++) agents.push(pgEvidenceStore(await team.member(`agent_${c}`, 'agent', [PROJECT])));
    // Warm each connection (and its session's first write, which makes the session).
    await writes(agents, sourceId, 'warm', 0);
    counted.byStatement.clear();
    const alone = await writes(agents.slice(0, 1), sourceId, 'alone', 0);
    const steps = statementTimes();
    const all = await writes(agents, sourceId, 'all', 0);
    // At 8 agents, the message that takes the chain's lock also waits for it.
    const stepsAll = statementTimes();
    const busied = await writes(agents, sourceId, 'busy', BUSY_MS);
    const chain = await admin.verifyChain();
    const figure = (name: string, ms: number[], p: number): Figure => ({ name, value: percentile(ms, p), unit: 'ms' });
    return [
      {
        title: `A cite's write on PostgreSQL (the store's citations.cite, no verification), ${CITES} writes per agent`,
        figures: [
          figure('write p50, 1 agent alone', alone.ms, 50),
          figure('write p95, 1 agent alone', alone.ms, 95),
          figure(`write p50, ${CLIENTS} agents at once`, all.ms, 50),
          figure(`write p95, ${CLIENTS} agents at once`, all.ms, 95),
          figure(`write p50, ${CLIENTS} agents at once, ${BUSY_MS} ms of CPU each between writes`, busied.ms, 50),
          figure(`write p95, ${CLIENTS} agents at once, ${BUSY_MS} ms of CPU each between writes`, busied.ms, 95),
          { name: 'round trips per cite (query messages, BEGIN and COMMIT included)', value: alone.perCite, unit: '' },
        ],
        notes: [`chain after the writes: ${chain.ok ? 'verified' : `BROKEN: ${JSON.stringify(chain.break)}`}`, 'the statements of one agent alone, each with its p50 and p95:', ...steps, `the statements of ${CLIENTS} agents at once:`, ...stepsAll],
      },
    ];
  } finally {
    await team.close();
    await server.close();
  }
};
