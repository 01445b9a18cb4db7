// `npm run bench`: every bench/*.bench.ts module in turn, or only those named: `npm run bench -- ingest`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatSection, type Bench } from './report.ts';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const modules = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

process.stdout.write(`# Evidence Desk benchmarks\n${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Figures are noisy here: read the ratios.\n`);
let failed = 0;
for (const file of modules) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { bench: Bench };
  try {
    for (const section of await mod.bench()) process.stdout.write(`${formatSection(section)}\n`);
  } catch (e) {
    failed++;
    process.stdout.write(`\n## ${file}: failed: ${(e as Error).stack ?? String(e)}\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
