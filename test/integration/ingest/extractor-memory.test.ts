import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../electron/services/ingest/worker-pool.ts';
import { splitPages } from '../../../electron/services/ingest/pooled-extract.ts';
import type { PdfPart } from '../../../electron/services/ingest/extractors/pdf.ts';
import { makePdf } from '../../support/pdf-fixtures.ts';

// Issue 16 item 5: an extraction child gives back what its heap grew to while it read a long PDF
// once the document is done (forgetPdf), instead of keeping it until the next document or for good.
const pools: WorkerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** This process's child processes (Linux /proc, as the bench reads them). */
function childPids(): number[] {
  return fs
    .readdirSync(`/proc/${process.pid}/task`)
    .flatMap((tid) => {
      try {
        return fs.readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').split(' ');
      } catch {
        return [];
      }
    })
    .filter((p) => p.trim() !== '')
    .map(Number);
}

/** A process's private memory (MB): what it alone holds. */
function privateMb(pid: number): number {
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(rollup)?.[1] ?? 0);
  return (kb('Private_Clean') + kb('Private_Dirty')) / 1024;
}

describe('an extraction child after a long PDF', () => {
  it('gives back the memory its heap grew to once the document is done', async () => {
    const words = 'retention schedule clause records annual audit evidence policy leave quarter source page'.split(' ');
    const pages = 1200;
    const bytes = await makePdf(
      Array.from({ length: pages }, (_, p) => ({ lines: Array.from({ length: 40 }, (_, l) => Array.from({ length: 12 }, (_, w) => words[(p * 31 + l * 7 + w * 3) % words.length]).join(' ')) })),
    );
    const before = new Set(childPids());
    const pool = new WorkerPool({ size: 1 });
    pools.push(pool);
    pool.warm();
    const [child] = childPids().filter((pid) => !before.has(pid));
    expect(child).toBeDefined();
    const pid = child as number;

    // The ranges one child reads of a long document, as pooled extraction gives them.
    const doc = 'manual';
    let read = 0;
    for (const [firstPage, lastPage] of [[1, 24] as [number, number], ...splitPages(25, pages, 2)]) {
      const part = await pool.run<PdfPart>({ op: 'pdfPart', bytes, doc, fileName: 'manual.pdf', firstPage, lastPage, ocr: false });
      read += part.segments.length;
    }
    expect(read).toBe(pages);
    const holding = privateMb(pid);

    pool.forgetPdf(doc);
    // The child collects at once; what it holds falls well below what it held while reading.
    await expect.poll(() => holding - privateMb(pid), { timeout: 10_000, interval: 100 }).toBeGreaterThan(20);

    // And it still reads the next document.
    const next = await pool.run<PdfPart>({ op: 'pdfPart', bytes, doc: 'next', fileName: 'next.pdf', firstPage: 1, lastPage: 2, ocr: false });
    expect(next.segments).toHaveLength(2);
  }, 120_000);
});
