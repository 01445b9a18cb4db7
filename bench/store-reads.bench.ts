/**
 * Issue 13: what moving answers, reviews and pages onto the async EvidenceStore interface costs on
 * SQLite. In one run, on one workspace, each operation is timed the way it was done before
 * (SQLite's stores called synchronously) and through the interface as the handlers do it now,
 * alternately, the first of each pair in turn: opening an answer of 200 citations
 * (answers.detail), the answers list (answers.list), a page's text (sources.pageText) and a
 * review decision (answers.review, whose head file write dominates). The writes of answers and runs
 * (import, re-verification, an import verified in batches) are timed through dispatch after the
 * reads, and compared across runs (one on each commit).
 * Run: node_modules/.bin/node bench/run.ts store-reads
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../electron/services/create-services.ts';
import { AnswersStore } from '../electron/services/store/answers-store.ts';
import { makePdf } from '../test/support/pdf-fixtures.ts';
import { rng } from '../test/support/random.ts';
import { BENCH_PLATFORM } from './bench-platform.ts';
import { percentile, type BenchSection, type Figure } from './report.ts';

const PAGES = 40;
const CITATIONS = 200;
const SMALL_ANSWERS = 30;
const ROUNDS = 60;
/** Each write adds an answer's rows: fewer rounds. */
const WRITE_ROUNDS = 15;

/** Times `before` and `after` alternately, `rounds` times each; sorted samples in ms. */
async function pair(rounds: number, before: () => unknown, after: () => Promise<unknown>): Promise<{ before: number[]; after: number[] }> {
  const out = { before: [] as number[], after: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    for (const which of i % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
      const t0 = performance.now();
      if (which === 'before') before();
      else await after();
      out[which].push(performance.now() - t0);
    }
  }
  out.before.sort((a, b) => a - b);
  out.after.sort((a, b) => a - b);
  return out;
}

function figures(what: string, t: { before: number[]; after: number[] }): Figure[] {
  return [50, 95].map((p) => ({
    name: `${what} p${p} through the EvidenceStore interface, beside the stores called directly`,
    value: percentile(t.after, p),
    unit: 'ms',
    reference: { tool: 'stores called directly', value: percentile(t.before, p) },
    ...(p === 50 ? { goal: { op: '<=' as const, value: 1.1, of: 'ratio' as const } } : {}),
  }));
}

/** Each operation `rounds` times in a row: its p50 and p95. */
async function timed(ops: readonly [string, () => Promise<unknown>][], rounds: number): Promise<Figure[]> {
  const out: Figure[] = [];
  for (const [what, op] of ops) {
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      await op();
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    for (const p of [50, 95]) out.push({ name: `${what} p${p}`, value: percentile(samples, p), unit: 'ms' });
  }
  return out;
}

/**
 * The card pages as the handlers serve them (answers.get lean, answers.cards pages of 50, answers.cardsSummary),
 * through dispatch: the same calls before and after they moved onto the interface, compared across runs.
 */
async function cardTimings(services: ReturnType<typeof createServices>, id: number): Promise<Figure[]> {
  const call = async (name: string, input: unknown) => {
    const r = await services.dispatch(name as never, input as never);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.value as { next?: string | null };
  };
  const third = async () => {
    let after: string | null | undefined;
    for (let k = 0; k < 3; k++) after = (await call('answers.cards', { id, filter: 'all', limit: 50, ...(after ? { after } : {}) })).next;
  };
  const ops: [string, () => Promise<unknown>][] = [
    [`open an answer of ${CITATIONS} citations lean (answers.get)`, () => call('answers.get', { id })],
    ['the first page of 50 cards (answers.cards)', () => call('answers.cards', { id, filter: 'all', limit: 50 })],
    ['three pages of 50 cards by cursor', third],
    ['the pages of the problems filter (answers.cardsSummary)', () => call('answers.cardsSummary', { id, filter: 'problems', pageSize: 50 })],
  ];
  return timed(ops, ROUNDS);
}

/** Writes of answers and runs (import, re-verification, an import verified in batches) through dispatch, compared across runs. */
async function writeTimings(services: ReturnType<typeof createServices>, id: number, content: (n: number) => string): Promise<Figure[]> {
  const call = async (name: string, input: unknown) => {
    const r = await services.dispatch(name as never, input as never);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  };
  const batched = 2 * CITATIONS + 50;
  const ops: [string, () => Promise<unknown>][] = [
    [`import an answer of ${CITATIONS} citations (answers.import)`, () => call('answers.import', { fileName: 'w.json', content: content(CITATIONS) })],
    [`re-verify an answer of ${CITATIONS} citations (answers.verify)`, () => call('answers.verify', { id })],
    [`import an answer of ${batched} citations verified in batches (answers.importSummary)`, () => call('answers.importSummary', { fileName: 'b.json', content: content(batched) })],
  ];
  return timed(ops, WRITE_ROUNDS);
}

export async function bench(): Promise<BenchSection[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-store-reads-bench-'));
  const services = createServices(BENCH_PLATFORM, path.join(dir, 'workspace'));
  try {
    const r = rng(13);
    const words = 'policy leave annual staff report board audit finding sample site standard contract clause payment period notice review'.split(' ');
    const pages = Array.from({ length: PAGES }, (_, p) => ({
      lines: Array.from({ length: 30 }, (_, l) => `${Array.from({ length: 8 }, () => words[Math.floor(r() * words.length)]).join(' ')} ${p}-${l}.`),
    }));
    const file = path.join(dir, 'report.pdf');
    fs.writeFileSync(file, await makePdf(pages));
    const ingested = await services.ingest.ingest({ paths: [file] });
    const first = ingested.files[0];
    if (!first?.ok) throw new Error('the bench document was not ingested');
    const sourceId = first.sourceId;
    const answer = (n: number, seed: number) => {
      const citations = Array.from({ length: n }, (_, i) => {
        const page = (i * 7 + seed) % PAGES;
        const line = pages[page]!.lines[(i * 3 + seed) % 30]!;
        return { marker: String(i + 1), claim: `Claim ${i + 1}.`, quote: i % 10 === 9 ? `${line} and more` : line, source: { file: 'report.pdf' }, locator: { page: page + 1 } };
      });
      return JSON.stringify({ format: 'evidence-desk/answer@1', question: 'What does the report say?', answer: citations.map((c) => `${c.claim} [${c.marker}]`).join(' '), citations });
    };
    for (let i = 0; i < SMALL_ANSWERS; i++) services.answers.importFile({ fileName: `small-${i}.json`, content: answer(5, i) });
    const big = services.answers.importFile({ fileName: 'big.json', content: answer(CITATIONS, 0) });
    const id = big.answer.id;
    const evidence = services.evidence;

    const open = await pair(ROUNDS, () => services.answers.get(id), () => services.answers.detail(evidence, id));
    const list = await pair(ROUNDS, () => services.answers.list(), () => services.answers.listFrom(evidence));
    let page = 0;
    const pageText = await pair(
      ROUNDS * 5,
      () => [services.sources.get(sourceId), services.sources.pageSegment(sourceId, (page++ % PAGES) + 1)],
      () => Promise.all([evidence.sources.get(sourceId), evidence.sources.pageSegment(sourceId, (page++ % PAGES) + 1)]),
    );
    // The decision as ReviewService made it before: its reads, then one transaction with its two entries.
    const store = new AnswersStore(services.db);
    const citationIds = big.citations.map((c) => c.id);
    let k = 0;
    const decide = await pair(
      ROUNDS,
      () => {
        const citationId = citationIds[k++ % citationIds.length]!;
        const c = store.citation(citationId)!;
        store.reviews(citationId);
        const now = new Date().toISOString();
        store.transaction(() => {
          const row = store.insertReview({ citationId, decision: 'rejected', note: 'Checked.', reviewer: null, undoesId: null }, now);
          store.appendAudit('citation.review', { answerId: c.answer_id, citationId, reviewId: row.id, decision: row.decision, note: row.note, supersedes: row.supersedes_id, reviewer: row.reviewer, undoes: row.undoes_id }, now);
        });
      },
      () => services.review.decide(citationIds[k++ % citationIds.length]!, 'rejected', 'Checked.'),
    );
    const cards = await cardTimings(services, id);
    const writes = await writeTimings(services, id, (n) => answer(n, 1));
    return [
      {
        title: 'Store interface on SQLite: answers, reviews and pages (issue 13)',
        figures: [
          ...figures(`open an answer of ${CITATIONS} citations`, open),
          ...figures(`list ${SMALL_ANSWERS + 1} answers`, list),
          ...figures('read a page and its source', pageText),
          ...figures('record a review decision', decide),
          ...cards,
          ...writes,
        ],
        notes: [`${PAGES}-page generated PDF; ${ROUNDS} rounds of each pair (pages ${ROUNDS * 5}), the first of each pair in turn; ${WRITE_ROUNDS} rounds of each write, after the reads.`],
      },
    ];
  } finally {
    services.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
