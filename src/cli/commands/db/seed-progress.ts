// Progress of register creation on stderr: on a terminal a bar for the rows, then one for the
// indexes, each with an estimate of the time left (from the pace so far); one line otherwise.
import type { IOStreams } from '../../io.js';
import { formatNumber } from '../../output/swedish.js';

export function seedProgress(io: IOStreams, label: string, now: () => number = Date.now) {
  let started = false;
  let lastDraw = 0;
  let phaseStart = { phase: '', at: 0 };
  return {
    update(done: number, total: number, phase: 'rows' | 'indexes' = 'rows'): void {
      if (!started) {
        started = true;
        if (!io.stderrIsTTY) io.stderr.write(`${label} (${formatNumber(total)} companies)…\n`);
      }
      const t = now();
      if (phaseStart.phase !== phase) phaseStart = { phase, at: t };
      if (!io.stderrIsTTY || (t - lastDraw < 100 && done < total)) return;
      lastDraw = t;
      const left = timeLeft(done, total, t - phaseStart.at);
      const line =
        phase === 'indexes'
          ? `${label}: indexes [${bar(done / total)}] ${done} of ${total}${left}`
          : `${label} [${bar(done / total)}] ${Math.floor((done / total) * 100)} % (${formatNumber(done)} of ${formatNumber(total)})${left}`;
      io.stderr.write(`\r\u001b[2K${line}`);
    },
    done(): void {
      if (started && io.stderrIsTTY) io.stderr.write('\r\u001b[2K');
    },
  };
}

/** ", about 12 s left" once there is a pace to go by. */
export function timeLeft(done: number, total: number, elapsedMs: number): string {
  if (done <= 0 || done >= total || elapsedMs < 500) return '';
  const seconds = Math.ceil(((total - done) * elapsedMs) / done / 1000);
  return seconds >= 90 ? `, about ${Math.round(seconds / 60)} min left` : `, about ${seconds} s left`;
}

function bar(fraction: number, width = 24): string {
  const filled = Math.round(Math.min(1, fraction) * width);
  return '#'.repeat(filled) + '-'.repeat(width - filled);
}

/** Said when another process (a replica, another bolag) is creating the register and this one waits. */
export const SEED_WAIT = 'Another process is creating the register; waiting for it…';
