// Ingests the given files into a fresh workspace through the built CLI bundle (what users run,
// extraction children included) in this process, and prints one JSON line: pages, wall time and
// peak memory of this process and its extraction children together (PSS sampled from /proc on Linux).
// Started by ingest.bench.ts with the V8 flags the `evidesk` command starts with (ingesting-process-flags.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface IngestJson {
  files: { ok: boolean; path: string; segmentCount?: number; error?: { code: string } }[];
}

const root = path.resolve(import.meta.dirname, '..');
const { runCli } = (await import(pathToFileURL(path.join(root, 'dist', 'cli', 'main.mjs')).href)) as {
  runCli(argv: string[], io: { out(t: string): void; err(t: string): void }): Promise<number>;
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-'));
/**
 * Proportional set size of this process and its extraction children together, in MB (Linux): PSS
 * shares pages common to several processes (the Node binary, libraries) among them, so children are
 * not charged twice for what they share. Elsewhere, this process's RSS alone. 0 while there are no
 * children: the figure is then this process's own peak (maxRSS).
 */
function treePssMb(): number {
  const pss = (pid: number | string): number => {
    try {
      return Number(/Pss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      return 0; // no /proc, or the child has just gone
    }
  };
  // Without children the tree is this process, whose peak RSS (getrusage, taken at the end) is never
  // below its PSS: reading smaps_rollup (a walk of every mapping, seconds of this thread over a run
  // of small files) would only take time from the ingestion being measured.
  const children = childPids();
  if (children.length === 0) return 0;
  const own = pss(process.pid) || process.memoryUsage.rss() / 1048576;
  const extraction = children.reduce((sum, pid) => sum + pss(pid), 0);
  peakOwnMb = Math.max(peakOwnMb, own);
  peakChildrenMb = Math.max(peakChildrenMb, extraction);
  if (own + extraction > peakTreeMb) peakSplit = { ownMb: own, childrenMb: extraction, children: children.length };
  return own + extraction;
}

/**
 * This process's children, read from /proc (each thread's children file) without starting a
 * process: a pgrep every sample would hold this process's event loop for tens of milliseconds on a
 * busy machine, time the ingestion being measured would then lose. Where /proc lacks the children
 * files, pgrep.
 */
const procChildren = fs.existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
function childPids(): string[] {
  if (procChildren) {
    const of = (tid: string): string[] => {
      try {
        return fs.readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').split(' ');
      } catch {
        return []; // the thread has just ended
      }
    };
    return fs.readdirSync(`/proc/${process.pid}/task`).flatMap(of).filter((pid) => pid.trim() !== '');
  }
  try {
    return execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}
let peakTreeMb = 0;
/**
 * The peak's split: this process (main thread, the ingest writer's thread when a stream of small
 * files starts it, SQLite) and the extraction children (pdf.js), each at the tree's peak and at
 * its own peak.
 */
let peakSplit = { ownMb: 0, childrenMb: 0, children: 0 };
let peakOwnMb = 0;
let peakChildrenMb = 0;
const sampler = setInterval(() => (peakTreeMb = Math.max(peakTreeMb, treePssMb())), 250);

let out = '';
const t0 = performance.now();
await runCli(['ingest', ...process.argv.slice(2), '--workspace', dir, '--json'], { out: (t) => (out += t), err: () => undefined });
const ms = performance.now() - t0;
clearInterval(sampler);
const result = JSON.parse(out) as IngestJson;
fs.rmSync(dir, { recursive: true, force: true });
const pages = result.files.reduce((n, f) => n + (f.ok ? (f.segmentCount ?? 0) : 0), 0);
const failed = result.files.filter((f) => !f.ok).map((f) => `${path.basename(f.path)}: ${f.error?.code ?? '?'}`);
// The figure the bench reports: the whole tree's peak (PSS), never less than this process's own peak.
const maxRssMb = Math.max(process.resourceUsage().maxRSS / 1024, peakTreeMb);
const files = result.files.filter((f) => f.ok).length;
const split = { atPeak: peakSplit, ownPeakMb: peakOwnMb, childrenPeakMb: peakChildrenMb };
// This process's own CPU time (main and writer threads, not the children): what its V8 flags change.
const usage = process.resourceUsage();
const ownCpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
process.stdout.write(`${JSON.stringify({ pages, files, ms, maxRssMb, ownMaxRssMb: usage.maxRSS / 1024, ownCpuMs, split, failed })}\n`);
