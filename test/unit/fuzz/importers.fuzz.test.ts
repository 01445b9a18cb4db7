// Fuzz properties over every answer importer, through the entry point the app uses
// (parseAnswerFile): any input is either a parsed answer the contract's schema accepts, with
// well-formed offset ranges, or an AppError with an importer code naming the file; never another
// exception, never a hang. Each input runs in a worker with a time limit (import-sandbox.ts).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_SEEDS, MARKDOWN_SEEDS } from '../../support/fuzz/answer-seeds.ts';
import { arbitraryJson, arbitraryText, mutatedJsonSeed, mutatedMarkdownSeed, type AnswerInput } from '../../support/fuzz/answer-mutations.ts';
import { importProblem, ImportSandbox } from '../../support/fuzz/import-sandbox.ts';
import { fuzzSeed } from '../../support/fuzz/seed.ts';

/** Far above any honest parse (a few ms); only a runaway loop or regex reaches it. */
const LIMIT_MS = 10_000;
const sandbox = new ImportSandbox(LIMIT_MS);
beforeAll(() => sandbox.ready(), 60_000);
afterAll(() => sandbox.close());

async function holds(input: AnswerInput): Promise<void> {
  const problem = importProblem(await sandbox.run(input.content, input.fileName), input.fileName);
  if (problem) throw new Error(`${input.kind}: ${problem}`);
}

// A failure is reported as found, not shrunk: shrinking an input that hangs costs the time limit
// per step. The seed and path fast-check prints replay it (EVIDESK_FUZZ_SEED).
const run = (arb: fc.Arbitrary<AnswerInput>, numRuns: number) => fc.assert(fc.asyncProperty(arb, holds), { seed: fuzzSeed(), numRuns, endOnFailure: true });

describe('answer importers under fuzzing', () => {
  it('every seed parses as its own format (the mutations start from valid files)', async () => {
    for (const seed of JSON_SEEDS) {
      const outcome = await sandbox.run(JSON.stringify(seed.value), 'seed.json');
      expect(outcome.kind === 'parsed' && (outcome.answer as { format: string }).format).toBe(seed.format);
    }
    for (const md of MARKDOWN_SEEDS) {
      const outcome = await sandbox.run(md, 'seed.md');
      expect(outcome.kind === 'parsed' && (outcome.answer as { citations: unknown[] }).citations.length).toBeGreaterThan(0);
    }
  });

  it('arbitrary text: parsed or refused with a code', () => run(arbitraryText, 800), 120_000);
  it('arbitrary JSON: parsed or refused with a code', () => run(arbitraryJson, 800), 120_000);
  it('mutated native, Anthropic, ledger and W3C files: parsed or refused with a code', () => run(mutatedJsonSeed, 2000), 120_000);
  it('mutated Markdown answers: parsed or refused with a code', () => run(mutatedMarkdownSeed, 1000), 120_000);
});
