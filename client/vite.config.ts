import { defineConfig } from 'vitest/config';

// The C++ server listens here in development; `npm run dev` forwards the API and socket to it.
const DEV_SERVER = 'http://127.0.0.1:8080';

export default defineConfig({
  server: {
    proxy: {
      '/api': { target: DEV_SERVER, changeOrigin: true },
      '/health': { target: DEV_SERVER, changeOrigin: true }, // the access mode
      '/ws': { target: DEV_SERVER, ws: true, changeOrigin: true },
      // Hide-and-seek's Sprite v1 sockets (the reference's paths).
      '/global': { target: DEV_SERVER, ws: true, changeOrigin: true },
      '/player': { target: DEV_SERVER, ws: true, changeOrigin: true },
      '/replay': { target: DEV_SERVER, ws: true, changeOrigin: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  // Vitest's 5 s per test is a race with the machine: the Snappy test over every size took 8 s
  // beside two busy loops (issue 38). A test ends when its work does; this only catches a hang.
  test: { include: ['src/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000 },
});
