import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { variant } from '../../support/inflate-heavy-pdf.ts';
import { assertWorkspaceIntact, runCancelStress, STRESS_PAGES, stressIngest, stressPdf, type StressCounts } from '../../support/cancel-stress.ts';
import { openTestServices } from '../../support/workspace.ts';

// Done-when 5 of issue 8: 200 cancels at random moments of a multi-hundred-page PDF's ingest; the
// host survives every one and the workspace stays intact. Most cancels let the extraction children
// stop at a page boundary (the normal path); the rest kill them at once, in the middle of inflating
// page streams, which is what used to abort the whole process when extraction ran in worker threads
// (a kill costs a fresh child, so those are fewer, with one child).
describe(`cancel stress: 200 cancels of a ${STRESS_PAGES}-page PDF ingest`, () => {
  const services = openTestServices();
  afterAll(() => services.close());
  const check = (cond: boolean, what: string) => expect(cond, what).toBe(true);
  const sourcesAfter = (counts: StressCounts[]) => counts.reduce((n, c) => n + c.completedFirst + 1, 0); // + the warm-up ingest

  const runs: StressCounts[] = [];

  it('170 cancels answered by children stopping at a page boundary', async () => {
    const counts = await runCancelStress(services, { cancels: 170, seed: 20261124, after: (i) => (i % 40 === 39 ? assertWorkspaceIntact(services, check) : 0) });
    runs.push(counts);
    expect(counts.survived).toBe(170);
    expect(counts.other).toEqual({});
    // The cancels really landed mid-extraction, and children stopped without being killed.
    expect(counts.cancelledFiles).toBeGreaterThan(85);
    expect(counts.pool.stopRequests).toBeGreaterThan(85);
    expect(counts.pool.died).toBe(0);
    expect(counts.pool.stoppedCooperatively).toBeGreaterThan(0);
  }, 900_000);

  it('30 cancels that kill the children at once, mid-inflate', async () => {
    const counts = await runCancelStress(services, { cancels: 30, seed: 7, graceMs: 0, children: 1, after: (i) => (i % 30 === 29 ? assertWorkspaceIntact(services, check) : 0) });
    runs.push(counts);
    expect(counts.survived).toBe(30);
    expect(counts.other).toEqual({});
    expect(counts.cancelledFiles).toBeGreaterThan(15);
    expect(counts.pool.killed).toBeGreaterThan(15);
    expect(counts.pool.died).toBe(0);
  }, 900_000);

  it('leaves the workspace intact, with no partial source, and a final uncancelled ingest succeeds', async () => {
    expect(runs).toHaveLength(2);
    expect(assertWorkspaceIntact(services, check)).toBe(sourcesAfter(runs));
    const { ingest, pool } = stressIngest(services);
    try {
      const file = writeFile(path.join(services.dir, 'stress-docs'), 'final.pdf', variant(await stressPdf(), -1));
      const result = await ingest.ingest({ paths: [file] });
      const f = result.files[0];
      expect(f?.ok).toBe(true);
      if (!f?.ok) return;
      expect(f.segmentCount).toBe(STRESS_PAGES);
      const page = services.sources.pageSegment(f.sourceId, 200);
      expect(page?.text).toContain('Page 200, line 4: the retention schedule keeps audit records for seven years.');
    } finally {
      await pool.close();
    }
    expect(assertWorkspaceIntact(services, check)).toBe(sourcesAfter(runs) + 1);
  }, 120_000);
});
