// Progress of a bulk import on stderr, on a terminal only: rows, rate and time left (from the
// bytes read of the uncompressed text, where the reader counts them: the open-data files), then a
// first load's index builds, which come after the last row and take tens of seconds at full size.
// Nothing on a pipe, where it would only be noise.
import type { IOStreams } from '../../io.js';
import { formatNumber } from '../../output/swedish.js';

export function importProgress(io: IOStreams, label: string, now: () => number = Date.now) {
  const started = now();
  let lastDraw = 0;
  let lines = 0;
  let indexesFrom = 0;
  return {
    /** Rows and rate; with the bytes read (not counted for our own format), the share done and the time left. */
    update(p: { lines: number; bytes?: number; totalBytes?: number }): void {
      lines = p.lines;
      if (!io.stderrIsTTY) return;
      const t = now();
      if (t - lastDraw < 200) return;
      lastDraw = t;
      const seconds = Math.max(0.001, (t - started) / 1000);
      const parts = [`${label}: ${formatNumber(p.lines)} rows`, `${formatNumber(Math.round(p.lines / seconds))} rows/s`];
      if (p.totalBytes && p.bytes !== undefined) {
        const fraction = Math.min(1, p.bytes / p.totalBytes);
        const left = fraction > 0.01 ? Math.round((seconds / fraction) * (1 - fraction)) : null;
        parts.push(`${Math.floor(fraction * 100)} %`, left === null ? 'estimating time left' : `about ${clock(left)} left`);
      }
      io.stderr.write(`\r\u001b[2K${parts.join(' · ')}`);
    },
    /** A first load's index builds: drawn at each one, as the importer does nothing else meanwhile. */
    indexes(done: number, total: number): void {
      if (!io.stderrIsTTY) return;
      const t = now();
      if (done === 0 || indexesFrom === 0) indexesFrom = t;
      lastDraw = t;
      // Short: a line wider than the terminal wraps, and only its last row is redrawn.
      io.stderr.write(`\r\u001b[2K${label}: ${formatNumber(lines)} rows · indexes ${done} of ${total} · ${clock(Math.round((t - indexesFrom) / 1000))}`);
    },
    /** Clears the line, once (called again after a failure, it writes nothing more). */
    done(): void {
      if (io.stderrIsTTY && lastDraw > 0) io.stderr.write('\r\u001b[2K');
      lastDraw = 0;
    },
  };
}

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${m} min ${s} s` : `${s} s`;
}
