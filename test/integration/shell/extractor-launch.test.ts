import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { utilityForks } from '../../support/electron-stand-in.ts';
import { electronPlatform, launchUtilityExtractor } from '../../../electron/shell/electron-platform.ts';
import { createServices } from '../../../electron/services/create-services.ts';
import type { ChildExit } from '../../../electron/services/ingest/extractor-process.ts';
import { tempDir } from '../../support/workspace.ts';

// Checklist: "Parse in worker (tests) / utilityProcess (app) with timeout". In the app, extraction
// children are Electron utility processes (the RunAsNode fuse is off, so the app cannot fork itself
// as Node); this checks our wiring against the stand-in, not Electron.
describe('the app extracts in utility processes', () => {
  it('forks the extraction script with the heap caps, no stdin, stderr piped; queues messages until spawn; kills on request; reports a heap-cap death', () => {
    const before = utilityForks.length;
    const child = launchUtilityExtractor({ script: '/app/dist/workers/extract-worker.mjs', maxHeapMb: 256, semiSpaceMb: 8 });
    const fork = utilityForks[before];
    expect(fork?.modulePath).toBe('/app/dist/workers/extract-worker.mjs');
    expect(fork?.options.execArgv).toEqual(['--max-old-space-size=256', '--max-semi-space-size=8', '--expose-gc']);
    expect(fork?.options.stdio).toEqual(['ignore', 'ignore', 'pipe']);
    const fake = fork?.child;
    if (!fake) throw new Error('no fork recorded');

    child.send({ op: 'extract', id: 1 });
    expect(fake.posted).toEqual([]);
    fake.emit('spawn');
    expect(fake.posted).toEqual([{ op: 'extract', id: 1 }]);
    child.send({ op: 'cancel', id: 1 });
    expect(fake.posted).toHaveLength(2);

    const replies: unknown[] = [];
    child.onMessage((m) => replies.push(m));
    fake.emit('message', { id: 1, type: 'progress', page: 1, pageCount: 3 });
    expect(replies).toEqual([{ id: 1, type: 'progress', page: 1, pageCount: 3 }]);

    child.kill();
    expect(fake.killed).toBe(true);
    const exits: ChildExit[] = [];
    child.onExit((e) => exits.push(e));
    fake.emit('error', 'FatalError', 'Reached heap limit', '{"header":{"event":"Allocation failed - JavaScript heap out of memory"}}');
    fake.emit('exit', 134);
    expect(exits).toEqual([{ code: 134, signal: null, outOfMemory: true }]);
    // Nothing is sent to a child that has gone.
    child.send({ op: 'extract', id: 2 });
    expect(fake.posted).toHaveLength(2);
  });

  it('the services built over the Electron platform run extraction in utility processes, under the time limit', async () => {
    const dir = tempDir();
    const services = createServices(electronPlatform(() => null), path.join(dir, 'workspace'), { ingest: { extractionTimeoutMs: 200 } });
    try {
      // Markdown always goes to an extraction child (small plain text is read in process).
      const file = path.join(dir, 'notes.md');
      fs.writeFileSync(file, '# Notes\n\nA line of notes.\n');
      const before = utilityForks.length;
      // The stand-in's child never answers, so the time limit ends the task.
      const result = await services.ingest.ingest({ paths: [file] });
      expect(result.files[0]).toMatchObject({ ok: false, error: { code: 'EXTRACTION_TIMEOUT' } });
      const fork = utilityForks[before];
      expect(path.basename(fork?.modulePath ?? '')).toMatch(/^extract-worker\.(ts|mjs)$/);
      fork?.child.emit('spawn');
      expect(fork?.child.posted[0]).toMatchObject({ op: 'extract', fileName: 'notes.md' });
      // The stopped task's child was asked to stop at a safe point.
      expect(fork?.child.posted[1]).toMatchObject({ op: 'cancel' });
    } finally {
      services.close();
    }
  });
});
