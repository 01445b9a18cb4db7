// `npm run bench`: every bench/*.bench.ts module, each in its own process so that its peak memory
// is its own, or only those named: `npm run bench -- ingest fts`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatSection, type Bench, type BenchSection } from './report.ts';

const dir = import.meta.dirname;
const childIndex = process.argv.indexOf('--module');

if (childIndex >= 0) {
  const file = process.argv[childIndex + 1] ?? '';
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { bench: Bench };
  const sections = await mod.bench();
  process.stdout.write(`\n@@RESULT@@${JSON.stringify({ sections, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
} else {
  const only = process.argv.slice(2);
  const modules = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
    .sort();
  process.stdout.write(
    `# Evidence Desk benchmarks\n${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Figures are noisy here: read the ratios, measured in the same run.\n`,
  );
  let failed = 0;
  for (const file of modules) {
    try {
      const out = execFileSync(process.execPath, [path.join(dir, 'run.ts'), '--module', file], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
      const json = out.slice(out.lastIndexOf('@@RESULT@@') + '@@RESULT@@'.length);
      const { sections, maxRssMb } = JSON.parse(json) as { sections: BenchSection[]; maxRssMb: number };
      sections.forEach((section, i) => {
        if (i === sections.length - 1) {
          section.figures.push({ name: `peak memory of the ${file.replace('.bench.ts', '')} bench process`, value: maxRssMb, unit: 'MB' });
        }
        process.stdout.write(`${formatSection(section)}\n`);
      });
    } catch (e) {
      failed++;
      process.stdout.write(`\n## ${file}: failed: ${(e as Error).message}\n`);
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}
