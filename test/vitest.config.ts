// Vitest settings. End-to-end tests spawn the built binary and start real servers, which
// takes seconds on a loaded 2-core machine: the default 5 s per test is too tight for them.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
