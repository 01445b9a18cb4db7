/**
 * One member's client for the concurrency test (issue 13, Done-when 2), in a process of its own
 * with its own login role. It listens for changes first, says "ready", and on "go" writes for the
 * given time as its kind of member does, one write at a time, printing each acknowledged write:
 *   citer URL NAME PROJECT: opens its own agent session and cites sources (seeded or seen in its feed);
 *   reviewer URL NAME: records decisions on the citations its feed announces that it may see;
 *   ingester URL NAME: adds documents; shared-K has the same bytes in every ingester, and every
 *     ingester adds shared-K at the same clock slot, so the two add the same bytes at the same moment.
 * After "stopped" it waits for "converge" (every acknowledged write of every client), until its
 * feed has announced them all, then reports its feed and what row-level security lets it see.
 * Protocol: JSON lines, commands on stdin, events on stdout.
 */
import readline from 'node:readline';
import { PgStore, type Decision } from '../../electron/services/store/postgres/pg-store.ts';
import type { StoreChange } from '../../electron/services/store/postgres/pg-changes.ts';
import { pgDocument } from './pg-team.ts';

const [kind, url, name, project] = process.argv.slice(2);
if (!kind || !url || !name) throw new Error('usage: pg-team-client.ts citer|reviewer|ingester URL NAME [PROJECT]');

/** Shared documents are added one per slot, by every ingester at the slot's start. */
const SHARED_SLOT_MS = 700;

const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const think = () => sleep(10 + Math.random() * 30);

const commands = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function command(type: string): Promise<Record<string, unknown>> {
  for (;;) {
    const r = await commands.next();
    if (r.done) throw new Error(`stdin closed while waiting for "${type}"`);
    const c = JSON.parse(r.value) as Record<string, unknown>;
    if (c.type === type) return c;
  }
}

const store = await PgStore.connect(url);
const feed = await store.changes();
const seen = new Map<string, number>();
const announced: StoreChange[] = [];
let wake: (() => void) | undefined;
void (async () => {
  for await (const change of feed) {
    const key = `${change.table}:${change.id}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    announced.push(change);
    wake?.();
  }
})();

const ack = (table: string, id: number, extra: Record<string, unknown> = {}) => say({ type: 'ack', table, id, ...extra });
say({ type: 'ready' });
const go = await command('go');
const startAt = Number(go.startAt);
const deadline = startAt + Number(go.durationMs);
const sources = (go.sourceIds as number[]).slice();
await sleep(Math.max(0, startAt - Date.now()));

let writes = 0;
let failures = 0;
async function attempt(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
    writes++;
  } catch (e) {
    failures++;
    const err = e as { code?: string; message?: string };
    say({ type: 'error', code: err.code ?? null, message: err.message ?? String(e) });
  }
}

if (kind === 'citer') {
  // Its own session, opened once every feed listens (as every write of the run).
  const session = await store.openSession({ sessionKey: `${name}-session`, projectKey: project ?? 'alpha', userId: `${name}-user` });
  ack('answers', session.answerId);
  ack('agent_sessions', session.sessionId);
  const answerId = session.answerId;
  let read = 0;
  for (let n = 0; Date.now() < deadline; n++) {
    // Sources added by the ingesters reach this client through its feed.
    for (; read < announced.length; read++) if (announced[read]?.table === 'sources') sources.push(announced[read]?.id ?? 0);
    const sourceId = sources[Math.floor(Math.random() * sources.length)] ?? 0;
    const token = `${name}#${n}`;
    await attempt(async () => {
      const c = await store.addCitation({ answerId, marker: `[${n + 1}]`, claim: token, quote: 'the quarterly revenue grew', sourceId, locator: { kind: 'text', paragraph: 1 } });
      ack('citations', c.id, { token });
    });
    await think();
  }
} else if (kind === 'reviewer') {
  const decisions: Decision[] = ['accepted', 'flagged', 'rejected', 'cleared'];
  const decided: number[] = [];
  let read = 0;
  for (let n = 0; Date.now() < deadline; n++) {
    let citationId: number | undefined;
    while (citationId === undefined && read < announced.length) {
      const change = announced[read++];
      if (change?.table !== 'citations') continue;
      // The feed announces every project's citations; row-level security says which are ours.
      const visible = await store.pool.query('SELECT 1 FROM citations WHERE id = $1', [change.id]);
      if (visible.rowCount === 1) citationId = change.id;
    }
    // Nothing new: decide again on one decided before (the new decision supersedes it).
    if (citationId === undefined && decided.length > 0 && n % 3 === 0) citationId = decided[Math.floor(Math.random() * decided.length)];
    if (citationId === undefined) {
      await Promise.race([new Promise<void>((r) => (wake = r)), sleep(100)]);
      continue;
    }
    const target = citationId;
    const token = `${name}#${n}`;
    await attempt(async () => {
      const d = await store.addDecision({ citationId: target, decision: decisions[n % decisions.length] ?? 'accepted', note: token });
      ack('review_decisions', d.id, { token, citationId: target });
    });
    decided.push(target);
    await think();
  }
} else if (kind === 'ingester') {
  for (let k = 0; startAt + k * SHARED_SLOT_MS < deadline; k++) {
    await sleep(Math.max(0, startAt + k * SHARED_SLOT_MS - Date.now()));
    // Every 4th shared document is over a chunk, so the other ingester waits on its claim longer.
    for (const doc of [pgDocument(`shared-${k}`, k % 4 === 0 ? 1_100_000 : 6000 + k * 37), pgDocument(`${name}-own-${k}`, 3000 + k * 11)]) {
      await attempt(async () => {
        const added = await store.addSource(doc.src, () => doc.pieces());
        ack('sources', added.id, { file: doc.src.fileName, sha256: doc.src.sha256, created: added.created });
      });
    }
  }
} else {
  throw new Error(`unknown client kind ${kind}`);
}
say({ type: 'stopped', writes, failures });

// Convergence: the feed must announce every acknowledged write of every client.
const expected = (await command('converge')).keys as string[];
const until = Date.now() + 60_000;
const missing = () => expected.filter((k) => !seen.has(k));
while (missing().length > 0 && Date.now() < until) await Promise.race([new Promise<void>((r) => (wake = r)), sleep(200)]);
const visible: Record<string, number[]> = {};
for (const table of ['sources', 'answers', 'agent_sessions', 'citations', 'review_decisions']) {
  visible[table] = (await store.pool.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);
}
say({ type: 'report', missing: missing(), duplicates: [...seen].filter(([, n]) => n > 1).map(([k]) => k), feed: [...seen.keys()], visible });
await feed.close();
await store.close();
// A large report line must reach the pipe whole before the process ends.
process.stdout.write('', () => process.exit(0));
