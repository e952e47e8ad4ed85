// `pagandeAvvecklingsEllerOmstruktureringsforfarande`: the real file writes
// `|LI-AVOMFO$2019-08-27|KKAVOV-AVSLAVOMFO$2025-03-11` (leading pipe, `CODE$date`), the
// documentation `kod$text$fromdate`; both are read. A `*-AVSLAVOMFO` entry is a concluded
// proceeding and does not count. Only konkurs, likvidation and rekonstruktion are statuses of
// ours; mergers, divisions and conversions (FU*, DE*, OM, GROM, AC) leave the status alone.
import type { BolagsverketStanding } from '../open-data/source-row.js';

const BY_CODE: Record<string, BolagsverketStanding> = {
  KK: 'konkurs',
  LI: 'likvidation',
  RES: 'rekonstruktion',
  FR: 'rekonstruktion',
};
const PRIORITY: BolagsverketStanding[] = ['konkurs', 'likvidation', 'rekonstruktion'];

/** The weightiest ongoing proceeding that is a status of ours, or null. */
export function ongoingProceeding(raw: string): BolagsverketStanding | null {
  if (raw === '') return null;
  let found: BolagsverketStanding | null = null;
  for (const entry of raw.split('|')) {
    const code = entry.split('$')[0].trim().toUpperCase();
    if (code === '' || code.endsWith('-AVSLAVOMFO')) continue;
    const standing = BY_CODE[code.replace(/-AVOMFO$/, '')];
    if (standing && (found === null || PRIORITY.indexOf(standing) < PRIORITY.indexOf(found))) found = standing;
  }
  return found;
}
