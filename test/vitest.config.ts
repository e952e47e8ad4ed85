// Vitest settings. End-to-end tests spawn the built binary and start real servers, which
// takes seconds on a loaded 2-core machine: the default 5 s per test is too tight for them.
// Two projects: `all` (every test; on SQLite unless a suite picks its database itself); and,
// when DATABASE_URL is set, `http-on-postgres`: the HTTP suites again on
// PostgreSQL (their helpers read BOLAG_TEST_STORE: test/helpers/test-store.ts). Suites that
// pick their database themselves (store contract, search, multiprocess, test/faults) are in the first only.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The HTTP suites whose test servers follow BOLAG_TEST_STORE. */
const HTTP_SUITES = ['test/exports/*.test.ts', 'test/webhooks/{api,delivery,ssrf,retention,shutdown,cli.e2e}.test.ts', 'test/security/isolation.test.ts', 'test/fuzz/http.fuzz.test.ts', 'test/server/*.test.ts', 'test/import/open-data.e2e.test.ts'];

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'all', include: ['test/**/*.test.ts'], globalSetup: ['test/helpers/announce-pg-skip.ts'] } },
      ...(process.env.DATABASE_URL
        ? [
            {
              extends: true,
              test: {
                name: 'http-on-postgres',
                include: HTTP_SUITES,
                // Crash recovery picks its database itself (SQLite, and PostgreSQL when DATABASE_URL is set).
                exclude: ['test/exports/crash.test.ts'],
                env: { BOLAG_TEST_STORE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
