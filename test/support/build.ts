import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const RENDERER_DIR = path.join(ROOT, 'dist', 'renderer');

/** The e2e tests drive the built renderer; build it when `npm test` did not already. */
export function ensureBuilt(): void {
  if (fs.existsSync(path.join(RENDERER_DIR, 'index.html')) && fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.mjs'))) return;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.ts'), '--quiet'], { cwd: ROOT, stdio: 'inherit' });
}
