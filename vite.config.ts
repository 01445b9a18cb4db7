import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

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
  },
});
