// Progress of register creation on stderr: a bar on a terminal, one line otherwise.
import type { IOStreams } from '../../io.js';
import { formatNumber } from '../../output/swedish.js';

export function seedProgress(io: IOStreams, label: string) {
  let started = false;
  let lastDraw = 0;
  return {
    update(done: number, total: number, phase: 'rows' | 'indexes' = 'rows'): void {
      if (!started) {
        started = true;
        if (!io.stderrIsTTY) io.stderr.write(`${label} (${formatNumber(total)} companies)…\n`);
      }
      const now = Date.now();
      if (!io.stderrIsTTY || (now - lastDraw < 100 && done < total)) return;
      lastDraw = now;
      const line =
        phase === 'indexes'
          ? `${label}: building indexes…`
          : `${label} [${bar(done / total)}] ${Math.floor((done / total) * 100)} % (${formatNumber(done)} of ${formatNumber(total)})`;
      io.stderr.write(`\r\u001b[2K${line}`);
    },
    done(): void {
      if (started && io.stderrIsTTY) io.stderr.write('\r\u001b[2K');
    },
  };
}

function bar(fraction: number, width = 24): string {
  const filled = Math.round(Math.min(1, fraction) * width);
  return '#'.repeat(filled) + '-'.repeat(width - filled);
}
