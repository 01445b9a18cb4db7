import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The installed version of a package, read from its package.json (found by walking up from its
 * entry point, because packages with an `exports` map do not expose package.json).
 */
export function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}
