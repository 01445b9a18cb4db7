// Ingests the given files into a fresh workspace through the built CLI bundle (what users run,
// workers included) in this process, and prints one JSON line: pages, wall time and peak RSS.
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
let out = '';
const t0 = performance.now();
await runCli(['ingest', ...process.argv.slice(2), '--workspace', dir, '--json'], { out: (t) => (out += t), err: () => undefined });
const ms = performance.now() - t0;
const result = JSON.parse(out) as IngestJson;
fs.rmSync(dir, { recursive: true, force: true });
const pages = result.files.reduce((n, f) => n + (f.ok ? (f.segmentCount ?? 0) : 0), 0);
const failed = result.files.filter((f) => !f.ok).map((f) => `${path.basename(f.path)}: ${f.error?.code ?? '?'}`);
process.stdout.write(`${JSON.stringify({ pages, ms, maxRssMb: process.resourceUsage().maxRSS / 1024, failed })}\n`);
