// The playground is a folder of static files (web/dist) with relative URLs, so any web
// server, at any path, can host it. The worker is an ES module worker; Graphviz's wasm
// build is a chunk of its own, loaded with the first graph.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  // SSAKIT_PLAYGROUND_PROFILE=1 keeps the names (bench/playground-profile.ts reads them in the profile)
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000, minify: process.env.SSAKIT_PLAYGROUND_PROFILE ? false : 'esbuild' },
  worker: { format: 'es' },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
