import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const electronStandIn = fileURLToPath(new URL('./test/support/electron-stand-in.ts', import.meta.url));

export default defineConfig({
  test: {
    reporters: ['default', './test/support/closing-line-reporter.ts'],
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
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // A poll waits for the page to render; on 2 busy cores (other test files run beside these)
          // a viewer can take longer than vitest's default second. Still a ceiling, never a sleep.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
