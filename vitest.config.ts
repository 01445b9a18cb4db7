import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const electronStandIn = fileURLToPath(new URL('./test/support/electron-stand-in.ts', import.meta.url));

export default defineConfig({
  test: {
    reporters: ['default', './test/support/closing-line-reporter.ts'],
    // Vitest's default (cores - 1) runs every file serially on a 2-core machine. Most files spend
    // much of their time waiting on children (extractors, Chromium, PostgreSQL, the CLI), so two at
    // a time pay off even there. All three projects share this one pool: an e2e file runs beside an
    // integration or another e2e file (each starts its own host on a free port, its own Chromium
    // and its own temporary workspace; the PostgreSQL template is made under a lock).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        // The shell is loaded against a recording stand-in for 'electron' (DESIGN.md §9).
        resolve: { alias: { electron: electronStandIn } },
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['./test/support/build-before-e2e.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A poll waits for the page to render; on 2 busy cores (other test files run beside these)
          // a viewer can take longer than vitest's default second. Still a ceiling, never a sleep.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
