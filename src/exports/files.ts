// What an export's files are called when downloaded (where they live is the store's business: store.exportFiles).
import type { StoredExport } from '../store/exports.js';

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
