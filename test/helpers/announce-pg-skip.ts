// Vitest's global setup: said once, up front, because the reporter shows a skipped suite only as
// a count, not why.
export default function announcePgSkip(): void {
  if (!process.env.DATABASE_URL) {
    console.warn('PostgreSQL suites skipped: set DATABASE_URL=postgres://… to run them too (.ci/run does).');
  }
}
