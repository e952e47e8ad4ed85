// SCB's activity codes onto the register's status (see docs/open-data-import.md):
//   JEStat 9 (left SCB's population, kept six months)   → avregistrerad
//   FtgStat 1 (registered for VAT, F-tax or as employer) → aktiv
//   FtgStat 0 (never active) or 9 (no longer active)     → vilande
import type { ScbActivity } from '../open-data/source-row.js';

export function mapScbActivity(ftgStat: string, jeStat: string): ScbActivity | null {
  if (jeStat === '9') return 'avregistrerad';
  if (ftgStat === '1') return 'aktiv';
  if (ftgStat === '0' || ftgStat === '9') return 'vilande';
  return null;
}
