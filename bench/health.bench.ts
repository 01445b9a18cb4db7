// Source health (DESIGN.md §7): how long a check of 10,000 unchanged sources takes, and its peak
// memory, beside `find -printf` statting the same files. Goal: ≤ 1 s for the whole check.
// The check runs in a child process (this file with --child) so its peak RSS is its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServices } from '../electron/services/create-services.ts';
import { sha256Bytes } from '../electron/services/hashing/sha256.ts';
import type { Platform } from '../electron/services/platform.ts';
import { openDatabase } from '../electron/services/store/database.ts';
import { SourcesStore } from '../electron/services/store/sources-store.ts';
import { timeCommand, type Bench, type Figure } from './report.ts';

const SOURCES = 10_000;
const FOLDERS = 100;
const TOUCHED = 100;
const CITATIONS = 5_000;

interface ChildResult {
  firstMs: number;
  bestMs: number;
  touchedMs: number;
  syncStatMs: number;
  counts: { ok: number; modified: number; missing: number };
  maxRssMb: number;
  /** RSS once the services are open, before the first check: modules and the open workspace. */
  openRssMb: number;
}

/** 10,000 small real files, each a source: rows through SourcesStore.insert, one outer transaction. */
export function makeWorkspace(root: string): { workspace: string; docs: string } {
  const docs = path.join(root, 'docs');
  const workspace = path.join(root, 'workspace');
  const db = openDatabase(workspace);
  const store = new SourcesStore(db);
  const now = new Date().toISOString();
  const ids: number[] = [];
  db.transaction(() => {
    for (let i = 0; i < SOURCES; i++) {
      const dir = path.join(docs, `folder-${String(i % FOLDERS).padStart(3, '0')}`);
      if (i < FOLDERS) fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `note-${i}.txt`);
      const text = `Note ${i}: the retention schedule keeps record ${i * 7919} for ${i % 12} years.\n`;
      fs.writeFileSync(file, text);
      const st = fs.statSync(file);
      ids.push(
        store.insert(
          {
            sha256: sha256Bytes(Buffer.from(text)),
            fileName: path.basename(file),
            byteSize: st.size,
            path: file,
            stat: { size: st.size, mtimeMs: st.mtimeMs },
            doc: { kind: 'text', method: 'bench', title: null, pageCount: null, segments: [{ text, line: 1, lineEnd: 1, blockType: 'lines' }], warnings: [] },
            snapshot: null,
            predecessorId: null,
          },
          now,
        ),
      );
    }
    // Citations make the per-source counts a real GROUP BY, as in a workspace with answers.
    const answer = db.prepare(`INSERT INTO answers (format, answer_text, origin, created_at) VALUES ('bench', 'a', 'bench', ?)`).run(now);
    const cite = db.prepare(`INSERT INTO citations (answer_id, ordinal, marker, claim, source_id, claimed_locator, created_at) VALUES (?, ?, ?, 'c', ?, '{}', ?)`);
    for (let c = 0; c < CITATIONS; c++) cite.run(answer.lastInsertRowid, c, String(c + 1), ids[(c * 37) % ids.length] ?? 1, now);
  })();
  db.close();
  return { workspace, docs };
}

async function child(workspace: string, docs: string): Promise<void> {
  const platform: Platform = { mode: 'cli', chooseFiles: () => Promise.resolve([]), revealInFolder: () => Promise.resolve() };
  const services = createServices(platform, workspace);
  const openRssMb = process.memoryUsage().rss / 1048576;
  try {
    let t0 = performance.now();
    const first = await services.health.checkAll();
    const firstMs = performance.now() - t0;
    let bestMs = Infinity;
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      await services.health.checkAll();
      bestMs = Math.min(bestMs, performance.now() - t0);
    }
    // For comparison: the same stats done synchronously, blocking the event loop.
    const paths = first.sources.map((s) => s.path ?? '');
    t0 = performance.now();
    for (const p of paths) fs.statSync(p, { throwIfNoEntry: false });
    const syncStatMs = performance.now() - t0;
    // 1% of the files touched (same bytes, new mtime): those are re-hashed, then remembered.
    const later = new Date(Date.now() + 60_000);
    for (const p of paths.slice(0, TOUCHED)) fs.utimesSync(p, later, later);
    t0 = performance.now();
    const touched = await services.health.checkAll();
    const touchedMs = performance.now() - t0;
    if (touched.counts.ok !== SOURCES || first.counts.ok !== SOURCES) throw new Error(`expected ${SOURCES} ok sources, got ${JSON.stringify(touched.counts)} under ${docs}`);
    const result: ChildResult = { firstMs, bestMs, touchedMs, syncStatMs, counts: first.counts, maxRssMb: process.resourceUsage().maxRSS / 1024, openRssMb };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    services.close();
  }
}

export const bench: Bench = async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-health-'));
  try {
    const t0 = performance.now();
    const { workspace, docs } = makeWorkspace(root);
    const setupS = (performance.now() - t0) / 1000;
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', workspace, docs], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as ChildResult;
    const find = timeCommand('find', [docs, '-type', 'f', '-printf', '%s %T@\\n'], 3);
    const reference: Figure['reference'] = find === null ? { tool: 'find -printf', absent: 'find is not installed' } : { tool: 'find -printf "%s %T@" (stats only)', value: find };
    const figures: Figure[] = [
      { name: `health check, ${SOURCES.toLocaleString('en')} unchanged sources, first check in a fresh process`, value: r.firstMs, unit: 'ms', reference, goal: { op: '<=', value: 1000, of: 'value' } },
      { name: `health check, ${SOURCES.toLocaleString('en')} unchanged sources, best of 5 repeats`, value: r.bestMs, unit: 'ms', reference, goal: { op: '<=', value: 1000, of: 'value' } },
      { name: `health check with ${TOUCHED} touched files (re-hashed, same bytes)`, value: r.touchedMs, unit: 'ms', goal: { op: '<=', value: 1000, of: 'value' } },
      { name: 'peak RSS of the checking process (open workspace + 8 checks)', value: r.maxRssMb, unit: 'MB' },
    ];
    return [
      {
        title: 'Source health check',
        figures,
        notes: [
          `stats run 64 at a time through fs.stat callbacks; the same ${SOURCES.toLocaleString('en')} stats done with statSync took ${r.syncStatMs.toFixed(1)} ms but block the event loop`,
          `RSS was ${r.openRssMb.toFixed(0)} MB with the services open before the first check (modules, SQLite); the checks add the rest`,
          `page cache warm (the files were just written); setup of ${SOURCES.toLocaleString('en')} files and rows took ${setupS.toFixed(1)} s`,
        ],
      },
    ];
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === '--child') {
  await child(process.argv[3] ?? '', process.argv[4] ?? '');
}
