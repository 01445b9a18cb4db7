/**
 * A member's client in a process of its own, for the kill tests (issue 13, Done-when 4): it stops
 * in the middle of a write, says so on stdout, and waits there to be killed (SIGKILL).
 *   ingest URL NAME: adds document NAME, stopping after its first chunk row is written;
 *   cite URL SOURCE_ID: opens a session (prints "session ANSWER_ID"), waits for a line on stdin,
 *   then adds a citation (the test holds the chain's lock, so it stops before its commit).
 */
import readline from 'node:readline';
import { CHUNK_SIZE } from '../../electron/services/store/postgres/pg-snapshots.ts';
import { PgStore } from '../../electron/services/store/postgres/pg-store.ts';
import { pgDocument } from './pg-team.ts';

const [mode, url, arg] = process.argv.slice(2);
if (!url || !arg) throw new Error('usage: pg-kill-child.ts ingest|cite URL ARG');
const store = await PgStore.connect(url);
const forever = new Promise<never>(() => undefined);

if (mode === 'ingest') {
  const doc = pgDocument(arg, CHUNK_SIZE + 4321);
  const held = (async function* () {
    yield doc.bytes.subarray(0, CHUNK_SIZE);
    // Asked for more: the first chunk row is written, the transaction is open.
    process.stdout.write('mid-write\n');
    await forever;
  })();
  await store.addSource(doc.src, held);
} else if (mode === 'cite') {
  const session = await store.openSession({ sessionKey: `kill-${process.pid}`, projectKey: 'alpha', userId: 'kim' });
  process.stdout.write(`session ${session.answerId}\n`);
  await readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]().next();
  process.stdout.write('citing\n');
  await store.addCitation({ answerId: session.answerId, marker: '[1]', claim: 'Cut short.', quote: 'revenue', sourceId: Number(arg), locator: { kind: 'text', paragraph: 1 } });
}
process.stdout.write('finished\n');
await store.close();
