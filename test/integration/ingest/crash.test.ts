import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/services/store/database.ts';
import { ROOT } from '../../support/build.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { rng } from '../../support/random.ts';
import { tempDir } from '../../support/workspace.ts';

const CLI = path.join(ROOT, 'electron', 'cli', 'main.ts');
const KILLS = 20;


function ingestChild(docs: string, workspace: string): { done: Promise<number | null>; kill(): void } {
  const child = spawn(process.execPath, [CLI, 'ingest', docs, '--workspace', workspace, '--json'], { stdio: 'ignore' });
  return {
    done: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    kill: () => child.kill('SIGKILL'),
  };
}

/** After any crash the workspace opens, is intact, and every source present is complete. */
function assertConsistent(workspace: string): number {
  const db = openDatabase(workspace);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.prepare("INSERT INTO segments_fts (segments_fts) VALUES ('integrity-check')").run();
    const sources = db.prepare('SELECT id, sha256, kind, page_count, snapshot FROM sources').all() as {
      id: number;
      sha256: string;
      kind: string;
      page_count: number | null;
      snapshot: string | null;
    }[];
    for (const s of sources) {
      const ordinals = (db.prepare('SELECT ordinal FROM segments WHERE source_id = ? ORDER BY ordinal').all(s.id) as { ordinal: number }[]).map((r) => r.ordinal);
      expect(ordinals.length).toBeGreaterThan(0);
      expect(ordinals).toEqual(ordinals.map((_, i) => i));
      if (s.kind === 'pdf') expect(ordinals.length).toBe(s.page_count);
      expect(s.snapshot).not.toBeNull();
      const blob = fs.readFileSync(path.join(workspace, s.snapshot ?? ''));
      expect(createHash('sha256').update(blob).digest('hex')).toBe(s.sha256);
      expect((db.prepare('SELECT count(*) AS n FROM source_paths WHERE source_id = ?').get(s.id) as { n: number }).n).toBeGreaterThan(0);
    }
    return sources.length;
  } finally {
    db.close();
  }
}

describe('crash safety: SIGKILL while ingesting', () => {
  let docs: string;
  let fileCount: number;
  let fullRunMs: number;

  beforeAll(async () => {
    docs = path.join(tempDir(), 'docs');
    for (let i = 0; i < 10; i++) {
      const pages = Array.from({ length: 6 + i * 4 }, (_, p) => ({ lines: [`Document ${i}, page ${p + 1}.`, `Crash-test filler text number ${i * 100 + p}.`] }));
      writeFile(docs, `doc-${String(i).padStart(2, '0')}.pdf`, await makePdf(pages));
    }
    for (let i = 0; i < 4; i++) writeFile(docs, `note-${i}.txt`, `Note ${i}\n\n${'A line of text to store.\n'.repeat(30 + i)}`);
    fileCount = 14;
    const started = Date.now();
    const full = ingestChild(docs, path.join(tempDir(), 'workspace'));
    expect(await full.done).toBe(0);
    fullRunMs = Date.now() - started;
  });

  it(`leaves a consistent workspace after each of ${KILLS} kills at random moments`, async () => {
    const random = rng(20261122); // seeded, so a failing moment can be replayed
    let partial = 0;
    let workspace = path.join(tempDir(), 'workspace');
    for (let i = 0; i < KILLS; i++) {
      // Every fourth run starts over; the others resume in the workspace the last kill left behind.
      if (i % 4 === 0) workspace = path.join(tempDir(), 'workspace');
      const run = ingestChild(docs, workspace);
      const delay = Math.floor(fullRunMs * (0.15 + 0.8 * random()));
      const timer = setTimeout(() => run.kill(), delay);
      await run.done;
      clearTimeout(timer);
      if (!fs.existsSync(path.join(workspace, 'workspace.sqlite'))) continue;
      const stored = assertConsistent(workspace);
      if (stored < fileCount) partial++;
    }
    // The kills really landed mid-batch, not only after the work was done.
    expect(partial).toBeGreaterThan(KILLS / 4);
  }, 240_000);
});
