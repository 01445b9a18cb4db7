#!/usr/bin/env node
// The evidesk command: needs Node 22 or newer (better-sqlite3 13, pdf.js 6). Under npm scripts and
// npx the project's pinned Node 24 is first on PATH.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`evidesk needs Node 22 or newer (this is ${process.version}). Run it as "npx evidesk" inside the project, which uses its pinned Node 24.\n`);
  process.exit(3);
}
const { existsSync } = await import('node:fs');
const built = new URL('../dist/cli/main.mjs', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('evidesk is not built yet: run "npm run build" first.\n');
  process.exit(3);
}
// A small V8 young generation (electron/services/ingest/ingesting-process-flags.ts, whose list this
// repeats: this file runs before anything is built). V8 reads it only at startup, so the command
// replaces itself with a Node started with it (same process id, no second process); where it cannot
// (Windows, Node before 23.11) it goes on without. Measured on the bench's four large PDFs: the
// process's own peak 193-209 MB → 157-167 MB, its CPU time within noise (2.4-3.2 s either way).
const FLAGS = ['--max-semi-space-size=8'];
if (typeof process.execve === 'function' && !FLAGS.every((f) => process.execArgv.includes(f))) {
  process.execve(process.execPath, [process.execPath, ...FLAGS, ...process.execArgv, ...process.argv.slice(1)], process.env);
}
process.argv[1] = (await import('node:url')).fileURLToPath(built);
await import(built.href);
