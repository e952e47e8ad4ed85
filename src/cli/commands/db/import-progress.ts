// Progress of a bulk import on stderr, on a terminal only: rows, rate and time left (from the
// bytes read of the uncompressed text). Nothing on a pipe, where it would only be noise.
import type { IOStreams } from '../../io.js';
import { formatNumber } from '../../output/swedish.js';

export function importProgress(io: IOStreams, label: string) {
  const started = Date.now();
  let lastDraw = 0;
  return {
    update(p: { lines: number; bytes: number; totalBytes: number }): void {
      if (!io.stderrIsTTY) return;
      const now = Date.now();
      if (now - lastDraw < 200) return;
      lastDraw = now;
      const seconds = Math.max(0.001, (now - started) / 1000);
      const fraction = p.totalBytes > 0 ? Math.min(1, p.bytes / p.totalBytes) : 0;
      const left = fraction > 0.01 ? Math.round((seconds / fraction) * (1 - fraction)) : null;
      const parts = [
        `${label}: ${formatNumber(p.lines)} rows`,
        `${formatNumber(Math.round(p.lines / seconds))} rows/s`,
        `${Math.floor(fraction * 100)} %`,
        left === null ? 'estimating time left' : `about ${clock(left)} left`,
      ];
      io.stderr.write(`\r\u001b[2K${parts.join(' · ')}`);
    },
    done(): void {
      if (io.stderrIsTTY && lastDraw > 0) io.stderr.write('\r\u001b[2K');
    },
  };
}

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${m} min ${s} s` : `${s} s`;
}
