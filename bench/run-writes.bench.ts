/**
 * `npm run bench -- run-writes` (issue 13): the `runs` area's writes of a 300-citation answer on
 * PostgreSQL, through the interface only (no verification: the rows it would store are made up
 * here): the import with a run in batches of 40 (`beginRun`, 8 × `recordBatch`, `endRun`) and the
 * same answer imported with its run whole (`importAnswer`). Every result has a segment, every
 * third a closest passage, every fifth a judge opinion, so every table the area writes is in it.
 */
import { createHash } from 'node:crypto';
import { pgEvidenceStore } from '../electron/services/store/postgres/pg-evidence-store.ts';
import { migratePostgres } from '../electron/services/store/postgres/migrate.ts';
import { PgStore } from '../electron/services/store/postgres/pg-store.ts';
import { ensureProject } from '../electron/services/store/postgres/team.ts';
import type { NewAnswerImport, NewOutcome, RunsArea } from '../electron/services/store/evidence-store.ts';
import { startTestPostgres } from '../test/support/postgres.ts';
import type { Bench } from './report.ts';

const CITATIONS = 300;
const BATCH = 40;
const SUMMARY = { total: CITATIONS, byStatus: { verified: CITATIONS } } as never;

function answer(sourceId: number): NewAnswerImport {
  return {
    answer: { format: 'json', question: 'What did the board decide?', answerText: 'The board decided.', origin: 'bench', raw: '{}' },
    citations: Array.from({ length: CITATIONS }, (_, i) => ({
      marker: `[${i + 1}]`,
      claim: `Claim ${i}`,
      quote: `the quoted words of passage ${i}`,
      context: null,
      sourceId,
      unknownReference: null,
      claimedLocator: { page: 1 + (i % 9) },
      method: 'direct_quote',
      confidence: null,
    })),
  };
}

function outcome(i: number, sourceId: number, segmentId: number): NewOutcome {
  return {
    result: {
      status: 'verified', verdict: 'supported', score: 0.93 + (i % 7) / 100, confidence: 0.9, sourceId, segmentId, startOffset: 4, endSegmentId: null, endOffset: 30,
      firstEnd: null, lastStart: null, page: 1, pageLabel: null, matchMethod: 'exact', matchedText: `the quoted words of passage ${i}`, quote: `the quoted words of passage ${i}`,
      prefix: 'In ', suffix: '.', notes: [],
    },
    closest: i % 3 === 0 ? { sourceId, segmentId, start: 4, end: 30, score: 0.8, text: `passage ${i}` } : null,
    opinion: i % 5 === 0 ? { model: 'bench-judge', outcome: 'answered', verdict: 'supported', reason: 'It says so.' } : null,
  };
}

async function batched(runs: RunsArea, sourceId: number, segmentId: number): Promise<number> {
  const t0 = performance.now();
  const header = { verifier: 'bench', summary: SUMMARY, riskFlags: [] };
  const started = await runs.beginRun({ import: answer(sourceId) }, { ...header, planned: CITATIONS }, new Date().toISOString());
  for (let at = 0; at < CITATIONS; at += BATCH) {
    const ids = started.citationIds.slice(at, at + BATCH);
    await runs.recordBatch(started.runId, ids, ids.map((_, k) => outcome(at + k, sourceId, segmentId)), new Date().toISOString());
  }
  await runs.endRun(started.answerId, started.runId, { state: 'complete', done: CITATIONS, summary: SUMMARY, riskFlags: [], verifier: 'bench', planned: CITATIONS }, new Date().toISOString());
  return performance.now() - t0;
}

async function whole(runs: RunsArea, sourceId: number, segmentId: number): Promise<number> {
  const t0 = performance.now();
  const outcomes = Array.from({ length: CITATIONS }, (_, i) => outcome(i, sourceId, segmentId));
  await runs.importAnswer(answer(sourceId), { verifier: 'bench', summary: SUMMARY, riskFlags: [], outcomes }, new Date().toISOString());
  return performance.now() - t0;
}

export const bench: Bench = async () => {
  const server = await startTestPostgres();
  try {
    const owner = await server.owner();
    await migratePostgres(owner);
    await ensureProject(owner, 'bench', 'Bench');
    await owner.end();
    const pg = await PgStore.connect(server.ownerUrl, { max: 1 });
    const bytes = new TextEncoder().encode('In the quoted words of passage 0.');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const { id: sourceId } = await pg.addSource(
      { sha256, kind: 'text', fileName: 'minutes.txt', byteSize: bytes.length, pageCount: null, title: null, extractionMethod: 'text', segments: [{ text: 'In the quoted words of passage 0.', locator: {} }] },
      async function* () {
        yield bytes;
      },
    );
    const store = pgEvidenceStore(pg);
    const segmentId = (await store.sources.segments(sourceId))[0]?.id ?? 0;
    const runs = store.runs;
    await whole(runs, sourceId, segmentId); // warm: connections, plans
    const figures = [];
    for (let round = 0; round < 3; round++) {
      figures.push({ name: `300 citations imported, run in batches of ${BATCH} (round ${round + 1})`, value: await batched(runs, sourceId, segmentId), unit: 'ms' });
      figures.push({ name: `300 citations imported with their run whole (round ${round + 1})`, value: await whole(runs, sourceId, segmentId), unit: 'ms' });
    }
    await store.close();
    return [{ title: 'PostgreSQL: writes of an import and its run (the runs area)', figures, notes: ['Store writes only, owner connection, one embedded server; verification is not in it.'] }];
  } finally {
    await server.close();
  }
};
