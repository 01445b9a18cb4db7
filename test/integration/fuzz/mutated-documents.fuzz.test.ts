// Damaged documents through the real ingestion service: PDFs (classic xref and object streams),
// DOCX, HTML, text and Markdown generated here, then bit-flipped, truncated, with chunks
// duplicated, deleted, zeroed or overwritten, and ingested in batches through sources.ingest
// (extraction in the worker pool). Each file is ingested or refused with a coded error naming it;
// the control file after the damaged ones is always ingested; no batch outlives its time limits;
// the workspace (sources ingested before, the database, the audit chain) stays intact.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestResult } from '../../../shared/contract/schemas.ts';
import { ingestMutatedBatch, emptyTally, workspaceProblems } from '../../support/fuzz/document-fuzz.ts';
import { baseDocuments, DOC_KINDS, documentCase, EXTENSION, type DocKind } from '../../support/fuzz/document-mutations.ts';
import { fuzzSeed } from '../../support/fuzz/seed.ts';
import { openTestServices, type TestServices } from '../../support/workspace.ts';

// A ceiling that catches a hang, not a speed target: a file's clock also runs while a fresh extraction
// child starts, which took past 15 s for an unmutated PDF with other test files running on 2 busy cores.
const PER_FILE_LIMIT_MS = 30_000;

let services: TestServices;
let bases: Record<DocKind, Uint8Array>;
let docs: string;
/** The unmutated documents' rows, as stored before any damaged file arrived. */
let baseline: string;
let baselineIds: number[];

const rowsOf = (ids: number[]): string => JSON.stringify(ids.map((id) => [services.sources.get(id), services.sources.segments(id)]));

beforeAll(async () => {
  services = openTestServices({ ingest: { extractionTimeoutMs: PER_FILE_LIMIT_MS } });
  bases = await baseDocuments();
  docs = path.join(services.dir, 'docs');
  fs.mkdirSync(docs, { recursive: true });
  const paths = DOC_KINDS.map((kind) => {
    const file = path.join(docs, `base-${kind}.${EXTENSION[kind]}`);
    fs.writeFileSync(file, bases[kind]);
    return file;
  });
  const result = (await services.dispatch('sources.ingest', { paths })) as { ok: true; value: IngestResult };
  baselineIds = result.value.files.map((f) => {
    if (!f.ok) throw new Error(`the unmutated ${f.path} was not ingested: ${f.error.code}: ${f.error.message}`);
    return f.sourceId;
  });
  baseline = rowsOf(baselineIds);
}, 120_000);
afterAll(() => services.close());

describe('damaged documents through the ingestion service', () => {
  it('each file is ingested or refused with a coded error naming it; the batch goes on; the workspace stays intact', async () => {
    const tally = emptyTally();
    let batch = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(documentCase, { minLength: 1, maxLength: 4 }), async (cases) => {
        const problems = await ingestMutatedBatch({ services, dir: docs, batch: batch++, cases, bases, perFileLimitMs: PER_FILE_LIMIT_MS }, tally);
        if (problems.length > 0) throw new Error(problems.join('\n'));
      }),
      { seed: fuzzSeed(), numRuns: 300 },
    );
    expect(tally.crashes).toBe(0);
    expect(tally.hangs).toBe(0);
    // Both outcomes were exercised: the mutations neither all break nor all spare the files.
    expect(tally.accepted).toBeGreaterThan(0);
    expect(Object.values(tally.refused).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(await workspaceProblems(services)).toEqual([]);
    expect(rowsOf(baselineIds)).toBe(baseline);
  }, 600_000);
});
