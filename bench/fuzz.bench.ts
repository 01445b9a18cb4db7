/**
 * The long form of the fuzz properties (test/unit/fuzz, test/integration/fuzz): thousands of
 * answer files through every importer (each in a worker with a time limit), hundreds through
 * answers.import into a real workspace, and thousands of damaged documents through the ingestion
 * service; with ../shared/corpus present, damaged copies of its real files too. Prints inputs tried
 * per kind, accepted, refused by code, crashes and hangs (both must be 0).
 *
 * Sizes: EVIDESK_FUZZ_ANSWERS (default 5000), EVIDESK_FUZZ_IMPORTS (500), EVIDESK_FUZZ_DOCS (2000),
 * EVIDESK_FUZZ_CORPUS (300; 0 to skip); EVIDESK_FUZZ_SEED replays a run (default: the time).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { createServices, type Services } from '../electron/services/create-services.ts';
import type { Platform } from '../electron/services/platform.ts';
import { ERROR_CODES } from '../shared/contract/errors.ts';
import { anyAnswerInput, type AnswerInput } from '../test/support/fuzz/answer-mutations.ts';
import { emptyTally, ingestMutatedBatch, workspaceProblems, type FuzzTally } from '../test/support/fuzz/document-fuzz.ts';
import { baseDocuments, byteMutation, documentCase, type ByteMutation } from '../test/support/fuzz/document-mutations.ts';
import { importProblem, ImportSandbox } from '../test/support/fuzz/import-sandbox.ts';
import { makePdf } from '../test/support/pdf-fixtures.ts';
import { NOTES_TEXT, POLICY_PAGES } from '../test/support/policy-workspace.ts';
import type { BenchSection, Figure } from './report.ts';

const count = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 ? Math.floor(v) : fallback;
};

const PER_INPUT_LIMIT_MS = 10_000;
const PER_FILE_LIMIT_MS = 20_000;
const CORPUS = path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpus', 'docs');
/** Corpus files larger than this are left out: each is damaged and ingested many times. */
const CORPUS_MAX_BYTES = 1_100_000;

const platform: Platform = { mode: 'cli', chooseFiles: () => Promise.resolve([]), revealInFolder: () => Promise.resolve() };

function bump(rec: Record<string, number>, key: string): void {
  rec[key] = (rec[key] ?? 0) + 1;
}

/** A tally as bench figures: tried per kind, accepted, refused per code, crashes and hangs (goal 0). */
function section(title: string, tally: FuzzTally, acceptedWord: string, notes: string[]): BenchSection {
  const tried = Object.values(tally.tried).reduce((a, b) => a + b, 0);
  const figures: Figure[] = [{ name: 'inputs tried', value: tried, unit: 'inputs' }];
  for (const [kind, n] of Object.entries(tally.tried).sort()) figures.push({ name: `  tried: ${kind}`, value: n, unit: 'inputs' });
  figures.push({ name: acceptedWord, value: tally.accepted, unit: 'inputs' });
  for (const [code, n] of Object.entries(tally.refused).sort()) figures.push({ name: `  refused: ${code}`, value: n, unit: 'inputs' });
  figures.push({ name: 'crashes', value: tally.crashes, unit: 'inputs', goal: { op: '<=', value: 0, of: 'value' } });
  figures.push({ name: 'hangs', value: tally.hangs, unit: 'inputs', goal: { op: '<=', value: 0, of: 'value' } });
  const refused = Object.entries(tally.refused)
    .sort()
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const summary = `inputs tried: ${tried}; ${acceptedWord}: ${tally.accepted}; refused: ${refused || 'none'}; crashes: ${tally.crashes}; hangs: ${tally.hangs}`;
  return { title, figures, notes: [summary, ...notes, ...tally.problems.slice(0, 10).map((p) => `problem: ${p.slice(0, 400)}`)] };
}

async function pureImporters(seed: number, runs: number): Promise<FuzzTally> {
  const tally = emptyTally();
  const sandbox = new ImportSandbox(PER_INPUT_LIMIT_MS);
  await sandbox.ready();
  await fc.check(
    fc.asyncProperty(anyAnswerInput, async (input: AnswerInput) => {
      bump(tally.tried, input.kind);
      const outcome = await sandbox.run(input.content, input.fileName);
      const problem = importProblem(outcome, input.fileName);
      if (outcome.kind === 'parsed' && !problem) tally.accepted++;
      else if (outcome.kind === 'app-error' && !problem) bump(tally.refused, outcome.code);
      else if (outcome.kind === 'hang') tally.hangs++;
      else tally.crashes++;
      if (problem) tally.problems.push(`${input.kind}: ${problem}`);
      return true;
    }),
    { seed, numRuns: runs },
  );
  await sandbox.close();
  return tally;
}

function open(dir: string, name: string): Services {
  return createServices(platform, path.join(dir, name), { ingest: { extractionTimeoutMs: PER_FILE_LIMIT_MS } });
}

async function fullImports(dir: string, seed: number, runs: number): Promise<FuzzTally> {
  const tally = emptyTally();
  const services = open(dir, 'answers-workspace');
  try {
    const docs = path.join(dir, 'policy-docs');
    fs.mkdirSync(docs, { recursive: true });
    fs.writeFileSync(path.join(docs, 'HR_Policy.pdf'), await makePdf(POLICY_PAGES, 'HR Policy'));
    fs.writeFileSync(path.join(docs, 'onboarding-notes.txt'), NOTES_TEXT);
    await services.ingest.ingest({ paths: [docs] });
    await fc.check(
      fc.asyncProperty(anyAnswerInput, async (input: AnswerInput) => {
        bump(tally.tried, input.kind);
        const started = Date.now();
        const reply = await services.dispatch('answers.import', { content: input.content, fileName: input.fileName });
        if (Date.now() - started > PER_INPUT_LIMIT_MS * 3) {
          tally.hangs++;
          tally.problems.push(`${input.kind}: answers.import took ${Date.now() - started} ms`);
        }
        if (reply.ok) tally.accepted++;
        else if ((ERROR_CODES as readonly string[]).includes(reply.error.code) && reply.error.code !== 'INTERNAL' && reply.error.code !== 'INVALID_OUTPUT') bump(tally.refused, reply.error.code);
        else {
          tally.crashes++;
          tally.problems.push(`${input.kind}: ${reply.error.code}: ${reply.error.message}`);
        }
        return true;
      }),
      { seed, numRuns: runs },
    );
    for (const p of await workspaceProblems(services)) {
      tally.crashes++;
      tally.problems.push(`workspace after the imports: ${p}`);
    }
  } finally {
    services.close();
  }
  return tally;
}

async function documents(dir: string, seed: number, files: number, bases: Record<string, Uint8Array>, cases: fc.Arbitrary<{ kind: string; mutations: ByteMutation[] }>, extension?: (kind: string) => string): Promise<FuzzTally> {
  const tally = emptyTally();
  const services = open(dir, `documents-${Object.keys(bases).length}`);
  const docs = path.join(dir, `damaged-${Object.keys(bases).length}`);
  fs.mkdirSync(docs, { recursive: true });
  let batch = 0;
  try {
    const perBatch = 4;
    await fc.check(
      fc.asyncProperty(fc.array(cases, { minLength: perBatch, maxLength: perBatch }), async (batchCases) => {
        await ingestMutatedBatch({ services, dir: docs, batch: batch++, cases: batchCases, bases, perFileLimitMs: PER_FILE_LIMIT_MS, ...(extension ? { extension } : {}) }, tally);
        // Damaged copies are not kept: a long run would fill the disk.
        for (const f of fs.readdirSync(docs)) fs.rmSync(path.join(docs, f), { force: true });
        return true;
      }),
      { seed, numRuns: Math.ceil(files / perBatch) },
    );
    for (const p of await workspaceProblems(services)) {
      tally.crashes++;
      tally.problems.push(`workspace after the batches: ${p}`);
    }
  } finally {
    services.close();
  }
  return tally;
}

function corpusBases(): Record<string, Uint8Array> | null {
  if (!fs.existsSync(CORPUS)) return null;
  const bases: Record<string, Uint8Array> = {};
  for (const name of fs.readdirSync(CORPUS).sort()) {
    const file = path.join(CORPUS, name);
    if (!/\.(pdf|docx|txt|md|html)$/i.test(name) || fs.statSync(file).size > CORPUS_MAX_BYTES) continue;
    bases[name] = new Uint8Array(fs.readFileSync(file));
  }
  return Object.keys(bases).length > 0 ? bases : null;
}

export async function bench(): Promise<BenchSection[]> {
  const seed = process.env.EVIDESK_FUZZ_SEED !== undefined ? Number(process.env.EVIDESK_FUZZ_SEED) : Date.now() % 2 ** 31;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-fuzz-'));
  const seedNote = `fast-check seed ${seed} (EVIDESK_FUZZ_SEED=${seed} replays this run)`;
  const sections: BenchSection[] = [];
  try {
    let t0 = performance.now();
    const pure = await pureImporters(seed, count('EVIDESK_FUZZ_ANSWERS', 5000));
    sections.push(section('Fuzz: answer importers (parseAnswerFile in a worker, 10 s limit per input)', pure, 'parsed', [seedNote, `${((performance.now() - t0) / 1000).toFixed(1)} s`]));

    t0 = performance.now();
    const imports = await fullImports(dir, seed, count('EVIDESK_FUZZ_IMPORTS', 500));
    sections.push(section('Fuzz: answers.import into a workspace (dispatcher, verification, storage)', imports, 'imported', [seedNote, `${((performance.now() - t0) / 1000).toFixed(1)} s; afterwards quick_check and audit.verify`]));

    t0 = performance.now();
    const generated = await baseDocuments();
    const docs = await documents(dir, seed, count('EVIDESK_FUZZ_DOCS', 2000), generated, documentCase);
    sections.push(section('Fuzz: damaged generated documents through ingestion (worker pool, 20 s per file)', docs, 'ingested', [seedNote, `${((performance.now() - t0) / 1000).toFixed(1)} s; a control file after each batch of 4`]));

    const corpus = count('EVIDESK_FUZZ_CORPUS', 300) > 0 ? corpusBases() : null;
    if (corpus) {
      t0 = performance.now();
      const names = Object.keys(corpus);
      const corpusCase = fc.record({ kind: fc.constantFrom(...names), mutations: fc.array(byteMutation, { minLength: 1, maxLength: 3 }) });
      const tally = await documents(dir, seed, count('EVIDESK_FUZZ_CORPUS', 300), corpus, corpusCase, (name) => path.extname(name).slice(1).toLowerCase());
      sections.push(section(`Fuzz: damaged copies of ${names.length} corpus files (≤ ${(CORPUS_MAX_BYTES / 1e6).toFixed(1)} MB) through ingestion`, tally, 'ingested', [seedNote, `${((performance.now() - t0) / 1000).toFixed(1)} s`]));
    } else {
      sections.push({ title: 'Fuzz: corpus files', figures: [], notes: ['../shared/corpus is absent (or EVIDESK_FUZZ_CORPUS=0): only generated documents were damaged'] });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return sections;
}
