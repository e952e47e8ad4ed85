// Where an export's files live and what they are called when downloaded.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerOptions } from '../app/context.js';
import type { StoredExport } from '../store/exports.js';

/** The root folder of export files: --export-dir, else `exports/` beside the database (set by start.ts). */
export function exportRoot(options: ServerOptions): string {
  return options.exportDir ?? join(tmpdir(), 'bolag-exports');
}

/** One folder per export, so a restarted run can clear what an interrupted one left. */
export function exportFolder(options: ServerOptions, exportId: string): string {
  return join(exportRoot(options), exportId);
}

/** The name a part is downloaded as: `exp_….csv` for a single part, `exp_…-part-002.csv` otherwise. */
export function downloadName(e: Pick<StoredExport, 'id' | 'format' | 'files'>, index: number): string {
  if (e.files.length === 1) return `${e.id}.${e.format}`;
  return `${e.id}-part-${String(index).padStart(3, '0')}.${e.format}`;
}

export function zipName(e: Pick<StoredExport, 'id'>): string {
  return `${e.id}.zip`;
}

export const CONTENT_TYPES: Record<StoredExport['format'], string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};
