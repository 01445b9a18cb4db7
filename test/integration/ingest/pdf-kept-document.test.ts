import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/contract/errors.ts';
import { WorkerPool } from '../../../electron/services/ingest/worker-pool.ts';
import { extractInPool, splitPages } from '../../../electron/services/ingest/pooled-extract.ts';
import { extractPdf } from '../../../electron/services/ingest/extractors/pdf.ts';
import { forkNodeExtractor, type ExtractorChild, type LaunchExtractor } from '../../../electron/services/ingest/extractor-process.ts';
import { makePdf } from '../../support/pdf-fixtures.ts';

// Issue 16 item 5: a long PDF's bytes go to each extraction child once per document (with the
// first range that child reads), not once per page range; the child keeps the bytes for
// its later ranges and drops them when the document is done.
const pools: WorkerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

interface Sent {
  op: string;
  doc?: string;
  hasBytes: boolean;
  child: number;
}

/** A pool whose children's messages are recorded as they are sent (real children, real IPC). */
function recordingPool(size: number): { pool: WorkerPool; sent: Sent[]; children: ExtractorChild[] } {
  const sent: Sent[] = [];
  const children: ExtractorChild[] = [];
  const launch: LaunchExtractor = (options) => {
    const child = forkNodeExtractor(options);
    const index = children.push(child) - 1;
    return {
      ...child,
      send: (message) => {
        const m = message as { op: string; doc?: string; bytes?: unknown };
        sent.push({ op: m.op, ...(m.doc !== undefined ? { doc: m.doc } : {}), hasBytes: m.bytes instanceof Uint8Array, child: index });
        child.send(message);
      },
    };
  };
  const pool = new WorkerPool({ size, launch });
  pools.push(pool);
  return { pool, sent, children };
}

async function longPdf(pages: number): Promise<Uint8Array> {
  return makePdf(Array.from({ length: pages }, (_, i) => ({ lines: [`Page ${i + 1} of the retention manual.`, `Clause ${i + 1}: records are kept seven years.`] })));
}

describe('a long PDF in the extraction children', () => {
  it('sends the file to each child once, reads every range from the kept bytes, and stores the same pages as one reading', async () => {
    const bytes = await longPdf(640);
    const { pool, sent } = recordingPool(2);
    const doc = await extractInPool(pool, 'pdf', bytes, { fileName: 'manual.pdf', ocr: false });
    const parts = sent.filter((m) => m.op === 'pdfPart');
    expect(parts.length).toBe(1 + splitPages(25, 640, 4).length);
    expect(new Set(parts.map((m) => m.doc)).size).toBe(1);
    // Bytes only with each child's first range of the document.
    const firstPerChild = new Set<number>();
    for (const m of parts) {
      expect(m.hasBytes).toBe(!firstPerChild.has(m.child));
      firstPerChild.add(m.child);
    }
    // Every child that held it is told to drop it.
    const forgot = sent.filter((m) => m.op === 'forgetPdf');
    expect(forgot.map((m) => m.child).sort()).toEqual([...firstPerChild].sort());
    expect(forgot.every((m) => m.doc === parts[0]?.doc)).toBe(true);

    const alone = await extractPdf(bytes, { fileName: 'manual.pdf', ocr: false });
    expect(doc).toEqual(alone);
    expect(doc.segments).toHaveLength(640);

    // The next document is another key: its bytes go again, the old document is not reused.
    const other = await longPdf(60);
    const next = await extractInPool(pool, 'pdf', other, { fileName: 'other.pdf', ocr: false });
    expect(next.segments[59]?.text).toContain('Page 60 of the retention manual.');
    const nextParts = sent.filter((m) => m.op === 'pdfPart' && m.doc !== parts[0]?.doc);
    expect(nextParts.length).toBeGreaterThan(0);
    expect(new Set(nextParts.filter((m) => m.hasBytes).map((m) => m.child)).size).toBe(new Set(nextParts.map((m) => m.child)).size);
  });

  it('a child that dies between two ranges of a document: the range is retried in a fresh child, which is sent the file again', async () => {
    const bytes = await longPdf(420);
    const { pool, sent, children } = recordingPool(1);
    let killed = false;
    const doc = await extractInPool(pool, 'pdf', bytes, {
      fileName: 'manual.pdf',
      ocr: false,
      onProgress: (page) => {
        // Well into the second range: this child holds the document without having been sent it for this range.
        if (page === 60 && !killed) {
          killed = true;
          children[0]!.kill();
        }
      },
    });
    expect(killed).toBe(true);
    expect(doc.segments).toHaveLength(420);
    expect(doc.segments.map((s) => s.page)).toEqual(Array.from({ length: 420 }, (_, i) => i + 1));
    expect(pool.stats).toMatchObject({ died: 1, spawned: 2 });
    const toFresh = sent.filter((m) => m.op === 'pdfPart' && m.child === 1);
    expect(toFresh[0]?.hasBytes).toBe(true);
  });

  it('a damaged PDF fails alone with its coded error, and the next document reads normally in the same children', async () => {
    const good = await longPdf(300);
    const bad = good.slice(0, 2000);
    const { pool } = recordingPool(2);
    const failure = await extractInPool(pool, 'pdf', bad, { fileName: 'broken.pdf', ocr: false }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('PDF_CORRUPT');
    expect((failure as AppError).message).toContain('broken.pdf');
    const doc = await extractInPool(pool, 'pdf', good, { fileName: 'good.pdf', ocr: false });
    expect(doc.segments).toHaveLength(300);
    expect(pool.stats.died).toBe(0);
  });
});
