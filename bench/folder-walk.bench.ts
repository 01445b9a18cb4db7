// The folder walk (lstat per entry, asynchronous, off the main thread's critical path) beside
// find(1) listing the same tree with the same lstat per entry, in the same run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { walkPaths } from '../electron/services/ingest/folder-walk.ts';
import { timeCommand, type BenchSection } from './report.ts';

const FOLDERS = 200;
const PER_FOLDER = 100;

async function walkSection(): Promise<BenchSection> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-walk-'));
  for (let d = 0; d < FOLDERS; d++) {
    const sub = path.join(dir, `folder-${d}`);
    fs.mkdirSync(sub);
    for (let f = 0; f < PER_FOLDER; f++) fs.writeFileSync(path.join(sub, f % 2 ? `note-${f}.md` : `image-${f}.png`), '');
    fs.symlinkSync(path.join(sub, 'note-1.md'), path.join(sub, 'link.md'));
  }
  const entries = 1 + FOLDERS * (PER_FOLDER + 2);
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    let seen = 0;
    for await (const item of walkPaths([dir], { followSymlinks: false })) if (item.type !== 'failed') seen++;
    best = Math.min(best, performance.now() - t0);
    if (seen === 0) throw new Error('the walk found nothing');
  }
  const find = timeCommand('find', [dir, '-printf', '%y %i\\n']);
  fs.rmSync(dir, { recursive: true, force: true });
  const perSecond = (ms: number) => entries / (ms / 1000);
  return {
    title: 'Folder walk',
    figures: [
      {
        name: `walk of ${entries.toLocaleString('en-US')} entries (${FOLDERS} folders, files, links)`,
        value: perSecond(best),
        unit: 'entries/s',
        reference: find === null ? { tool: 'find -printf', absent: 'not found' } : { tool: 'find -printf', value: perSecond(find) },
      },
    ],
    notes: ['The walk yields as it goes: the first file is ingested long before the walk ends.'],
  };
}

export async function bench(): Promise<BenchSection[]> {
  return [await walkSection()];
}
