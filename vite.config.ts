import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The page's first script (renderer/src/first-page.ts): an entry of its own, at a fixed URL that index.html names. */
const FIRST_PAGE = path.resolve(import.meta.dirname, 'renderer/src/first-page.ts');

export default defineConfig({
  root: 'renderer',
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2023',
    // No source maps for the page: neither the host nor app:// serves them, and they would hand out the source.
    sourcemap: false,
    chunkSizeWarningLimit: 2048,
    rolldownOptions: {
      input: { index: path.resolve(import.meta.dirname, 'renderer/index.html'), 'first-page': FIRST_PAGE },
      output: {
        entryFileNames: (chunk) => (chunk.facadeModuleId === FIRST_PAGE ? 'first-page.js' : 'assets/[name]-[hash].js'),
        // The first screen's code in one file (issue 16): the modules the page needs before its
        // first rows, which the bundler otherwise splits into chunks shared with the lazy parts,
        // each a request of its own behind the browser's six connections to the host.
        codeSplitting: { groups: [{ name: 'first-screen', tags: ['$initial'], test: (id) => id !== FIRST_PAGE }] },
      },
    },
  },
});
