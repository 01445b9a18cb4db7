// `evidesk workspace migrate` (issue 13, Done-when 5): the corpus workspace (../shared/corpus
// ingested, OCR off) moved into a fresh PostgreSQL database on an embedded server, copied and
// checked end to end; the time of the move and the bench process's peak memory (run.ts adds it).
// Snapshots are streamed in 1 MiB chunks, so peak memory should not grow with the largest file.
// Without the corpus, a few generated text files stand in.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../electron/services/create-services.ts';
import type { Platform } from '../electron/services/platform.ts';
import { migrateWorkspace } from '../electron/services/store/postgres/pg-workspace-migrate.ts';
import { startTestPostgres } from '../test/support/postgres.ts';
import type { Bench } from './report.ts';

const CORPUS = path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpus', 'docs');

const platform: Platform = {
  mode: 'cli',
  chooseFiles: () => Promise.reject(new Error('no dialogs in a bench')),
  chooseSavePath: () => Promise.reject(new Error('no dialogs in a bench')),
  revealInFolder: () => Promise.reject(new Error('no dialogs in a bench')),
};

function inputs(root: string): { paths: string[]; note: string } {
  if (fs.existsSync(CORPUS)) return { paths: [CORPUS], note: `corpus: ${fs.readdirSync(CORPUS).length} files in ${CORPUS}` };
  const docs = path.join(root, 'docs');
  fs.mkdirSync(docs, { recursive: true });
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(docs, `note-${i}.txt`), `Note ${i}: the record ${i * 7919} is kept for ${i % 12} years.\n`.repeat(200));
  return { paths: [docs], note: 'the corpus is absent: 20 generated text files instead' };
}

export const bench: Bench = async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-migrate-bench-'));
  const server = await startTestPostgres();
  const owner = await server.owner();
  try {
    const workspace = path.join(root, 'workspace');
    const { paths, note } = inputs(root);
    const services = createServices(platform, workspace);
    try {
      await services.ingest.ingest({ paths, ocr: false });
    } finally {
      services.close();
    }
    const started = performance.now();
    const summary = await migrateWorkspace(owner, { from: workspace, project: { key: 'corpus', name: 'Corpus' } });
    const ms = performance.now() - started;
    const rows = summary.check.tables.reduce((n, t) => n + t.shared, 0);
    return [
      {
        title: 'workspace migrate: a local workspace into PostgreSQL, copied and checked end to end',
        figures: [
          { name: 'move and check, whole workspace', value: ms, unit: 'ms' },
          { name: 'rows moved and compared', value: rows, unit: 'rows' },
          { name: 'snapshot bytes streamed and rehashed', value: summary.check.snapshots.bytes / 2 ** 20, unit: 'MiB' },
        ],
        notes: [note, `audit chain: ${summary.chain.entries} entries verified on PostgreSQL`],
      },
    ];
  } finally {
    await owner.end();
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
};
