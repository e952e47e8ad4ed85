// Bolagsverket's and SCB's files as the bench generates them (bench/import-bulk), small, for
// tests that import them at more than fixture size: their paths in `dir`, by source and week.
import { join } from 'node:path';
import { generateBolagsverket } from '../../bench/import-bulk/generate-bolagsverket.js';
import { generateScb } from '../../bench/import-bulk/generate-scb.js';

export interface WeekFiles {
  bolagsverket: string[];
  scb: string[];
}

/** The paths of the weeks' files in `dir` (index 0 is week 1), not yet written. */
export function weekFiles(dir: string, weeks = 2): WeekFiles {
  const numbers = Array.from({ length: weeks }, (_, i) => i + 1);
  return {
    bolagsverket: numbers.map((w) => join(dir, `bolagsverket-week${w}.txt`)),
    scb: numbers.map((w) => join(dir, `scb-week${w}.txt`)),
  };
}

/** Writes each week's two files: SCB's lists the companies of Bolagsverket's `bolagsverketRows`. */
export function generateWeeks(files: WeekFiles, bolagsverketRows: number, scbRows: number): void {
  files.bolagsverket.forEach((path, i) => {
    generateBolagsverket(path, bolagsverketRows, i + 1);
    generateScb(files.scb[i], scbRows, bolagsverketRows, i + 1);
  });
}
