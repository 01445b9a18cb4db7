// Fuzzed answer files through the whole import path of a real workspace: answers.import through
// the services' dispatcher, as the app and the CLI call it. Every envelope is ok or carries a code
// from the contract (never INTERNAL or INVALID_OUTPUT); afterwards the database passes quick_check
// and the audit chain verifies.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../shared/contract/errors.ts';
import { anyAnswerInput, type AnswerInput } from '../../support/fuzz/answer-mutations.ts';
import { JSON_SEEDS, MARKDOWN_SEEDS } from '../../support/fuzz/answer-seeds.ts';
import { fuzzSeed } from '../../support/fuzz/seed.ts';
import { policyWorkspace } from '../../support/policy-workspace.ts';
import { openTestServices, type TestServices } from '../../support/workspace.ts';

/**
 * A hang guard, far above any honest import of these small files (a 40 kB mutated Markdown answer
 * took 42 s with other test files running on 2 overloaded cores; a hang never ends).
 */
const LIMIT_MS = 60_000;
const NOT_CODED = new Set(['INTERNAL', 'INVALID_OUTPUT']);

let services: TestServices;
beforeAll(async () => {
  services = openTestServices();
  await policyWorkspace(services);
}, 60_000);
afterAll(() => services.close());

describe('answers.import under fuzzing, into a real workspace', () => {
  it('each file is imported or refused with a coded error; the database and the audit chain stay sound', async () => {
    let imported = 0;
    const seeds: [AnswerInput][] = [...JSON_SEEDS.map((s) => JSON.stringify(s.value)), ...MARKDOWN_SEEDS].map((content) => [{ kind: 'seed', content, fileName: 'seed.json' }]);
    await fc.assert(
      fc.asyncProperty(anyAnswerInput, async (input) => {
        const started = Date.now();
        const reply = await services.dispatch('answers.import', { content: input.content, fileName: input.fileName });
        const ms = Date.now() - started;
        if (ms > LIMIT_MS) throw new Error(`${input.kind}: answers.import took ${ms} ms`);
        if (reply.ok) {
          imported++;
          return;
        }
        const { code, message } = reply.error;
        if (!(ERROR_CODES as readonly string[]).includes(code) || NOT_CODED.has(code)) throw new Error(`${input.kind}: ${code}: ${message}`);
      }),
      // Reported as found, not shrunk: each shrinking step is a whole import (see importers.fuzz.test.ts).
      { seed: fuzzSeed(), numRuns: 300, examples: seeds, endOnFailure: true },
    );
    // The seeds themselves import (they cite the workspace's documents).
    expect(imported).toBeGreaterThanOrEqual(seeds.length);
    expect(services.db.pragma('quick_check', { simple: true })).toBe('ok');
    const audit = await services.dispatch('audit.verify', {});
    expect(audit.ok && (audit.value as { ok: boolean }).ok).toBe(true);
    const list = await services.dispatch('answers.list', {});
    expect(list.ok && (list.value as unknown[]).length).toBe(imported);
  }, 300_000);
});
