// Our JSONL as the export writes it: one company a line, `{"id":"…","org_nr":"…",…}`, the
// stored record serialised as is. A line of that shape is looked up by the org nr of its head
// without parsing it, and a line equal to the stored record's serialisation is unchanged.
import { rowFromCompanyId } from '../../core/company-id.js';
import { normalizeOrgNr } from '../../core/orgnr.js';
import type { ImportRecord, StoredCompany } from '../../store/import-types.js';

const HEAD = '{"id":"';
const ORG_NR = ',"org_nr":"';

/**
 * The register row a line's head names by its id (`c_` and the row in base 36), or null. Only a
 * hint where to find the stored record the line may equal: the line is compared with all of it.
 */
export function exportLineRow(text: string): number | null {
  if (!text.startsWith(HEAD)) return null;
  const idEnd = text.indexOf('"', HEAD.length);
  return idEnd < 0 ? null : rowFromCompanyId(text.slice(HEAD.length, idEnd));
}

/**
 * The normalised org nr of a line that starts as the export writes one, or null. Only the head
 * is read: whether the rest agrees (a later duplicate "org_nr", say) is for the full parse.
 */
export function exportLineKey(text: string): string | null {
  if (!text.startsWith(HEAD)) return null;
  const idEnd = text.indexOf('"', HEAD.length);
  // A backslash may escape the quote: then the head is not the plain shape read here.
  if (idEnd < 0 || text.lastIndexOf('\\', idEnd) >= HEAD.length || !text.startsWith(ORG_NR, idEnd + 1)) return null;
  const start = idEnd + 1 + ORG_NR.length;
  const end = text.indexOf('"', start);
  if (end < 0 || text.lastIndexOf('\\', end) >= start) return null;
  return normalizeOrgNr(text.slice(start, end));
}

/**
 * True when the record's line is the stored company exactly as the export writes it, with or
 * without `latest_financials` (an export has it only when expanded; absent, it is not compared).
 * Parsed, such a line gives every field the stored value, so planning it would change nothing.
 */
export function matchesExportLine(record: ImportRecord, existing: StoredCompany): boolean {
  const text = record.text;
  if (text === undefined) return false;
  // A line from before the company last changed says so at once: no serialisation needed.
  if (!text.includes(`"updated_at":${JSON.stringify(existing.updated_at)}`)) return false;
  const company = existing.internal === undefined ? existing : withoutInternals(existing);
  // `latest_financials` is the record's last field: the line without it is the same text cut short.
  const full = JSON.stringify(company);
  if (text === full) return true;
  const financials = company.latest_financials;
  if (financials === undefined || text.length >= full.length) return false;
  const cut = full.length - FINANCIALS.length - JSON.stringify(financials).length - 1;
  return full.endsWith('}') && full.startsWith(FINANCIALS, cut) && text.length === cut + 1 && text.endsWith('}') && full.startsWith(text.slice(0, -1));
}

const FINANCIALS = ',"latest_financials":';

function withoutInternals(existing: StoredCompany): Omit<StoredCompany, 'internal'> {
  const { internal: _internal, ...company } = existing;
  return company;
}
