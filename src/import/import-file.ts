// `bolag db import FILE`: upserts by org_nr in one transaction with its events (the outbox).
import type { ImportResult } from '../store/import-types.js';
import type { Store } from '../store/store.js';
import { matchesExportLine } from './ours/export-line.js';
import { planRecord } from './plan-record.js';
import { readImportRecords } from './read-records.js';

export async function importFile(store: Store, path: string): Promise<ImportResult> {
  return store.companies.importRecords(readImportRecords(path), planRecord, { matchesStored: matchesExportLine });
}
