import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/contract/errors.ts';
import { WorkerPool } from '../../../electron/services/ingest/worker-pool.ts';
import { forkNodeExtractor, type ExtractorChild, type LaunchExtractor } from '../../../electron/services/ingest/extractor-process.ts';
import type { PdfPart } from '../../../electron/services/ingest/extractors/pdf.ts';
import type { ExtractedDocument } from '../../../electron/services/ingest/extracted.ts';
import { makePdf } from '../../support/pdf-fixtures.ts';

// Extraction runs in child processes (issue 8, item 8): a child that is killed mid-task, or dies of
// its heap cap, fails only its own task with a coded error; the pool starts a fresh child for the
// next one; a cancelled child that stops at a safe point is kept and reused.
const pools: WorkerPool[] = [];
function pool(options: ConstructorParameters<typeof WorkerPool>[0]): WorkerPool {
  const p = new WorkerPool(options);
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function longPdf(pages = 300): Promise<Uint8Array> {
  return makePdf(Array.from({ length: pages }, (_, i) => ({ lines: [`Page ${i + 1} of the long report.`, 'Retention of audit records: seven years.'] })));
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('the task succeeded; it was expected to fail');
}

async function stillWorks(p: WorkerPool): Promise<void> {
  const bytes = await makePdf([{ lines: ['The next file still goes in.'] }]);
  const part = await p.run<PdfPart>({ op: 'pdfPart', bytes, fileName: 'next.pdf', firstPage: 1, lastPage: 1 });
  expect(part.segments[0]?.text).toContain('The next file still goes in.');
}

describe('extraction children', () => {
  it('a child that served earlier documents and dies under the next one gets that task one fresh child; a first task that kills its child fails', async () => {
    // The children this pool starts, so the test can end one as a stray error in it would.
    const started: ExtractorChild[] = [];
    const launch: LaunchExtractor = (options) => {
      const child = forkNodeExtractor(options);
      started.push(child);
      return child;
    };
    const p = pool({ size: 1, launch });
    await stillWorks(p);
    const bytes = await longPdf(200);
    const second = p.run<PdfPart>({ op: 'pdfPart', bytes, fileName: 'second.pdf', firstPage: 1, lastPage: 200 });
    started[0]!.kill(); // dies under its second task, not by the pool's hand
    const part = await second;
    expect(part.segments).toHaveLength(200);
    expect(p.stats).toMatchObject({ died: 1, spawned: 2 });
    // A fresh pool's first task: its child's death is the document's, reported, not retried.
    const fresh = pool({ size: 1, launch });
    const first = fresh.run<PdfPart>({ op: 'pdfPart', bytes, fileName: 'first.pdf', firstPage: 1, lastPage: 200 });
    started[started.length - 1]!.kill();
    const e = await failure(first);
    expect(e.code).toBe('EXTRACTION_FAILED');
    expect(e.message).toContain('first.pdf');
    expect(fresh.stats).toMatchObject({ died: 1, spawned: 1 });
  });

  it('a document that exceeds the heap cap kills its child: EXTRACTION_FAILED naming the file, and the next task runs in a fresh child', async () => {
    const p = pool({ size: 1, maxHeapMb: 64 });
    // Twelve million one-character lines: far more strings than 64 MB of heap can hold.
    const hostile = new Uint8Array(24 * 1024 * 1024).fill(0x0a);
    for (let i = 0; i < hostile.length; i += 2) hostile[i] = 0x61;
    const e = await failure(p.run<ExtractedDocument>({ op: 'extract', kind: 'text', bytes: hostile, fileName: 'lines.txt' }));
    expect(e.code).toBe('EXTRACTION_FAILED');
    expect(e.message).toContain('lines.txt');
    expect(e.message).toContain('needs more memory than one document may use (64 MB)');
    expect(e.message).toContain('not ingested');
    expect(p.stats).toMatchObject({ died: 1, killed: 0 });
    await stillWorks(p);
    expect(p.stats.spawned).toBe(2);
  });

  it('a task past its deadline whose child does not stop in time is killed: EXTRACTION_TIMEOUT, and the next task runs', async () => {
    // No grace at all: the child is killed the moment the deadline passes, wherever it is.
    const p = pool({ size: 1, graceMs: 0 });
    const bytes = await longPdf();
    const e = await failure(p.run<PdfPart>({ op: 'pdfPart', bytes, fileName: 'slow.pdf', firstPage: 1, lastPage: 300 }, { deadline: Date.now() + 50 }));
    expect(e.code).toBe('EXTRACTION_TIMEOUT');
    expect(e.message).toContain('slow.pdf');
    expect(p.stats).toMatchObject({ stopRequests: 1, killed: 1, died: 0 });
    await stillWorks(p);
    expect(p.stats.spawned).toBe(2);
  });

  it('a cancelled task is answered CANCELLED at once; its child stops at the next page and is reused', async () => {
    const p = pool({ size: 1, graceMs: 60_000 });
    const bytes = await longPdf();
    const controller = new AbortController();
    let pagesSeen = 0;
    const e = await failure(
      p.run<PdfPart>(
        { op: 'pdfPart', bytes, fileName: 'long.pdf', firstPage: 1, lastPage: 300 },
        {
          signal: controller.signal,
          onProgress: () => {
            if (++pagesSeen === 5) controller.abort();
          },
        },
      ),
    );
    expect(e.code).toBe('CANCELLED');
    expect(e.message).toContain('long.pdf');
    expect(pagesSeen).toBeLessThan(300);
    await stillWorks(p);
    // The same child ran the next task: it stopped on its own, well within the grace period.
    expect(p.stats).toMatchObject({ spawned: 1, stopRequests: 1, stoppedCooperatively: 1, killed: 0, died: 0 });
  });

  it('a closed pool refuses work with CANCELLED', async () => {
    const p = pool({ size: 2 });
    await stillWorks(p);
    await p.close();
    expect((await failure(p.run({ op: 'countPdfPages', bytes: new Uint8Array(4), fileName: 'late.pdf' }))).code).toBe('CANCELLED');
  });
});

describe('extraction children after a host crash', () => {
  it('children exit when the process that started them is killed: none is left running', async () => {
    const host = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'support', 'pool-host.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      host.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('running')) resolve();
      });
      host.once('exit', (code) => reject(new Error(`the host exited early (${code})`)));
    });
    const children = execFileSync('pgrep', ['-P', String(host.pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
    expect(children).toHaveLength(2);
    const gone = new Promise((resolve) => host.once('exit', resolve));
    host.kill('SIGKILL');
    await gone;
    // Gone, or a zombie waiting to be reaped by whoever adopted it: either way it runs no more.
    const alive = (pid: number) => {
      try {
        return !/^\S+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    await expect.poll(() => children.filter(alive), { timeout: 20_000, interval: 100 }).toEqual([]);
  });
});
