// Builds everything `npm start` and the tests need: the renderer (Vite), pdf.js assets beside it,
// and the Node-side bundles (Electron main and preload, the browser host, the CLI, the workers).
import { build as esbuild, type BuildOptions } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { build as viteBuild } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const quiet = process.argv.includes('--quiet');

async function buildRenderer(): Promise<void> {
  await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
  // Character maps, standard fonts and wasm decoders: the viewer must extract the same text as ingestion.
  const pdfjsRoot = path.join(root, 'node_modules', 'pdfjs-dist');
  for (const dir of ['cmaps', 'standard_fonts', 'wasm']) {
    fs.cpSync(path.join(pdfjsRoot, dir), path.join(dist, 'renderer', 'pdfjs', dir), { recursive: true });
  }
}

async function buildNode(): Promise<void> {
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    logLevel: quiet ? 'warning' : 'info',
  };
  await Promise.all([
    esbuild({ ...common, format: 'esm', entryPoints: { 'electron/main': 'electron/shell/main.ts' }, outdir: dist, outExtension: { '.js': '.mjs' } }),
    // A sandboxed preload must be one CommonJS file that requires nothing but 'electron'.
    esbuild({ ...common, format: 'cjs', entryPoints: { 'electron/preload': 'electron/shell/preload.ts' }, outdir: dist, outExtension: { '.js': '.cjs' } }),
    esbuild({
      ...common,
      format: 'esm',
      entryPoints: {
        'host/main': 'electron/host/main.ts',
        'cli/main': 'electron/cli/main.ts',
        // Beside the bundles that start it (worker-pool.ts looks for ../workers/extract-worker.mjs).
        'workers/extract-worker': 'electron/services/ingest/extract-worker.ts',
        // The audit chain's check in a worker thread (audit-service.ts looks for ../workers/audit-worker.mjs).
        'workers/audit-worker': 'electron/services/audit/audit-worker.ts',
        // Ingestion's group commits in a thread (ingest-writer.ts looks for ../workers/ingest-writer.mjs).
        'workers/ingest-writer': 'electron/services/store/ingest-writer-worker.ts',
      },
      outdir: dist,
      outExtension: { '.js': '.mjs' },
    }),
  ]);
}

const t0 = performance.now();
process.chdir(root);
await Promise.all([buildRenderer(), buildNode()]);
if (!quiet) process.stdout.write(`Built in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${path.relative(process.cwd(), dist)}/\n`);
