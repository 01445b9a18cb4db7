// Cancels the ingest of a long, inflate-heavy PDF at seeded random moments, through the real
// IngestService over a real workspace, and checks after each one that this process still runs the
// next. Shared by the cancel stress test (200 cancels) and its bench (2,000).
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { DEFAULT_WORKSPACE_SETTINGS } from '../../shared/contract/schemas.ts';
import { IngestService } from '../../electron/services/ingest/ingest-service.ts';
import { WorkerPool, type PoolStats } from '../../electron/services/ingest/worker-pool.ts';
import { BlobStore } from '../../electron/services/store/blobs.ts';
import { writeFile } from './pdf-fixtures.ts';
import { makeInflateHeavyPdf, variant } from './inflate-heavy-pdf.ts';
import { rng } from './random.ts';
import type { TestServices } from './workspace.ts';

export const STRESS_PAGES = 320;

export interface StressCounts {
  cancels: number;
  /** Cancels after which the batch ended and the next one ran: the process survived. */
  survived: number;
  /** Ingests that finished before their cancel landed (stored whole). */
  completedFirst: number;
  /** Files reported as CANCELLED. */
  cancelledFiles: number;
  /** Any other outcome (must stay empty): code → count. */
  other: Record<string, number>;
  pool: PoolStats;
  ms: number;
}

export interface StressOptions {
  cancels: number;
  seed: number;
  /** 0 kills every stopped child at once (mid-inflate); the default lets it stop at a page boundary. */
  graceMs?: number;
  /** Extraction children (2 unless given: one is cheaper when every cancel costs a fresh child). */
  children?: number;
  /** Called after every cancel, with its index (e.g. to check the workspace now and then). */
  after?: (i: number) => void;
}

const settings = { maxFileBytes: 1 << 30, snapshots: true, extractionTimeoutMs: 600_000, maxPdfPages: DEFAULT_WORKSPACE_SETTINGS.maxPdfPages };

/** The real ingest service over the test workspace, with a pool of its own (for its stats and grace period). */
export function stressIngest(services: TestServices, graceMs?: number, children = 2): { ingest: IngestService; pool: WorkerPool } {
  const pool = new WorkerPool({ size: children, ...(graceMs !== undefined ? { graceMs } : {}) });
  const ingest = new IngestService(services.evidence.ingest, new BlobStore(services.workspaceDir), services.events, () => settings, pool);
  return { ingest, pool };
}

let pdfBytes: Uint8Array | null = null;
export async function stressPdf(): Promise<Uint8Array> {
  pdfBytes ??= await makeInflateHeavyPdf(STRESS_PAGES);
  return pdfBytes;
}

/**
 * Ingests one variant of the stress PDF and cancels it (through cancel(batchId), as the UI does) at
 * the moment given as a page: 0 or less while it is being read and hashed, 1..pages once that many
 * pages have been extracted, more than the page count when it is being stored. Moments by progress,
 * not by clock, so they fall where they should however loaded the machine is.
 */
async function ingestAndCancel(services: TestServices, ingest: IngestService, file: string, atPage: number) {
  let cancelled = false;
  const off = services.events.subscribe((e) => {
    if (e.type !== 'ingest.progress' || cancelled) return;
    const reached = e.phase === 'storing' || e.phase === 'done' ? Infinity : e.phase === 'extracting' ? (e.page ?? 0) : 0;
    if (reached >= atPage) {
      cancelled = true;
      ingest.cancel(e.batchId);
    }
  });
  try {
    return await ingest.ingest({ paths: [file] });
  } finally {
    off();
  }
}

export async function runCancelStress(services: TestServices, options: StressOptions): Promise<StressCounts> {
  const pdf = await stressPdf();
  const docs = path.join(services.dir, 'stress-docs');
  const { ingest, pool } = stressIngest(services, options.graceMs, options.children);
  const random = rng(options.seed);
  const counts: StressCounts = { cancels: 0, survived: 0, completedFirst: 0, cancelledFiles: 0, other: {}, pool: pool.stats, ms: 0 };
  const t0 = performance.now();
  try {
    // One whole ingest first: the stress PDF goes in uncancelled, and the children are warm.
    const warm = writeFile(docs, `warm-${options.seed}.pdf`, variant(pdf, -options.seed));
    const first = await ingest.ingest({ paths: [warm] });
    if (!first.files[0]?.ok) throw new Error(`the stress PDF did not ingest: ${JSON.stringify(first.files[0])}`);
    fs.rmSync(warm);
    for (let i = 0; i < options.cancels; i++) {
      const file = writeFile(docs, `stress-${options.seed}-${i}.pdf`, variant(pdf, options.seed * 100_000 + i));
      // Mostly mid-extraction; a few while hashing (≤ 0) and a few while storing (> the page count).
      const atPage = Math.floor(random() * (STRESS_PAGES + 20)) - 8;
      const result = await ingestAndCancel(services, ingest, file, atPage);
      counts.cancels++;
      fs.rmSync(file);
      const f = result.files[0];
      if (f?.ok) counts.completedFirst++;
      else if (f?.error.code === 'CANCELLED') counts.cancelledFiles++;
      else if (f) counts.other[f.error.code] = (counts.other[f.error.code] ?? 0) + 1;
      // Reaching this line means the host process lived through the cancel and its aftermath.
      counts.survived++;
      options.after?.(i);
    }
  } finally {
    counts.pool = pool.stats;
    await pool.close();
    counts.ms = performance.now() - t0;
  }
  return counts;
}

/** Every stored source is whole: all its pages, in order, its snapshot's bytes hashing to its SHA-256. Returns how many there are. */
export function assertWorkspaceIntact(services: TestServices, expect: (cond: boolean, what: string) => void): number {
  const db = services.db;
  expect(db.pragma('quick_check', { simple: true }) === 'ok', 'quick_check is ok');
  expect((db.pragma('foreign_key_check') as unknown[]).length === 0, 'no foreign key violations');
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
    expect(ordinals.length === STRESS_PAGES && s.page_count === STRESS_PAGES, `source ${s.id} has all ${STRESS_PAGES} pages`);
    expect(ordinals.every((o, i) => o === i), `source ${s.id}'s pages are in order`);
    const blob = s.snapshot ? fs.readFileSync(path.join(services.workspaceDir, s.snapshot)) : null;
    expect(blob !== null && createHash('sha256').update(blob).digest('hex') === s.sha256, `source ${s.id}'s snapshot matches its SHA-256`);
  }
  return sources.length;
}
