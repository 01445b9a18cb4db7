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
process.argv[1] = (await import('node:url')).fileURLToPath(built);
await import(built.href);
