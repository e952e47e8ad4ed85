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
      const rows = `${label}: ${formatNumber(p.lines)} rows`;
      const rate = `${formatNumber(Math.round(p.lines / seconds))} rows/s`;
      let share: string | undefined;
      let left: string | undefined;
      if (p.totalBytes && p.bytes !== undefined) {
        const fraction = Math.min(1, p.bytes / p.totalBytes);
        const secondsLeft = fraction > 0.01 ? Math.round((seconds / fraction) * (1 - fraction)) : null;
        share = `${Math.floor(fraction * 100)} %`;
        // The file is read ahead of the import: its last batches are still being written.
        left = secondsLeft === null ? 'estimating time left' : secondsLeft === 0 ? 'finishing' : `about ${clock(secondsLeft)} left`;
      }
      io.stderr.write(`\r\u001b[2K${fitted(io, [{ text: rows, keep: 4 }, { text: rate, keep: 1 }, { text: share, keep: 3 }, { text: left, keep: 2 }])}`);
    },
    /** A first load's index builds: drawn at each one, as the importer does nothing else meanwhile. */
    indexes(done: number, total: number): void {
      if (!io.stderrIsTTY) return;
      const t = now();
      if (done === 0 || indexesFrom === 0) indexesFrom = t;
      lastDraw = t;
      // Short: a line wider than the terminal wraps, and only its last row is redrawn.
      const spent = clock(Math.round((t - indexesFrom) / 1000));
      io.stderr.write(`\r\u001b[2K${fitted(io, [{ text: `${label}: ${formatNumber(lines)} rows`, keep: 3 }, { text: `indexes ${done} of ${total}`, keep: 2 }, { text: spent, keep: 1 }])}`);
    },
    /** Clears the line, once (called again after a failure, it writes nothing more). */
    done(): void {
      if (io.stderrIsTTY && lastDraw > 0) io.stderr.write('\r\u001b[2K');
      lastDraw = 0;
    },
  };
}

/**
 * The parts that fit on one row of the terminal, in their order, the least needed given up first
 * (`keep`: higher stays longer): a line wider than the terminal wraps, `\r` goes back to its last
 * row only, and a narrow terminal filled with stale lines.
 */
function fitted(io: IOStreams, parts: { text?: string; keep: number }[]): string {
  const width = io.stderrColumns() - 1;
  let shown = parts.filter((p): p is { text: string; keep: number } => p.text !== undefined);
  const line = () => shown.map((p) => p.text).join(' · ');
  while (width > 0 && shown.length > 1 && [...line()].length > width) {
    const least = shown.reduce((a, b) => (b.keep < a.keep ? b : a));
    shown = shown.filter((p) => p !== least);
  }
  const text = line();
  return width > 0 && [...text].length > width ? `${[...text].slice(0, Math.max(1, width - 1)).join('')}…` : text;
}

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${m} min ${s} s` : `${s} s`;
}
