// A host process for the orphan test: it starts two extraction children on a long PDF, says
// "running" once both report progress, and waits to be killed.
import { WorkerPool } from '../../electron/services/ingest/worker-pool.ts';
import { makePdf } from './pdf-fixtures.ts';

const bytes = await makePdf(Array.from({ length: 3000 }, (_, i) => ({ lines: [`Page ${i + 1}.`] })));
const pool = new WorkerPool({ size: 2 });
const started = new Set<number>();
for (const [a, b] of [[1, 1500], [1501, 3000]] as const) {
  void pool
    .run({ op: 'pdfPart', bytes, fileName: 'long.pdf', firstPage: a, lastPage: b }, {
      onProgress: () => {
        started.add(a);
        if (started.size === 2 && !process.stdout.writableEnded) process.stdout.write('running\n');
      },
    })
    .catch(() => undefined);
}
setInterval(() => undefined, 1000);
