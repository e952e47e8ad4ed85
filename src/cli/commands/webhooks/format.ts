// How webhooks and delivery attempts look on a terminal.
import { TableFormatter } from '../../output/table.js';
import type { Row, TableColumn } from '../../output/table-columns.js';

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

export function filtersText(filters: unknown): string {
  if (!filters || typeof filters !== 'object') return '';
  return Object.entries(filters as Record<string, string[]>)
    .map(([k, v]) => `${k}=${v.join(',')}`)
    .join(' ');
}

const WEBHOOK_COLUMNS: TableColumn[] = [
  { header: 'ID', value: (r) => text(r.id), align: 'left', min: 24, keep: Infinity },
  { header: 'STATUS', value: (r) => text(r.status), align: 'left', min: 8, keep: 90 },
  { header: 'URL', value: (r) => text(r.url), align: 'left', min: 20, keep: 100 },
  { header: 'EVENTS', value: (r) => (Array.isArray(r.events) ? r.events.join(',') : ''), align: 'left', min: 14, keep: 80 },
  { header: 'FILTERS', value: (r) => filtersText(r.filters), align: 'left', min: 10, keep: 70 },
];

function time(v: unknown): string {
  const s = text(v);
  return s.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

const DELIVERY_COLUMNS: TableColumn[] = [
  { header: 'TIME', value: (r) => time(r.created_at), align: 'left', min: 20, keep: 85 },
  { header: 'EVENT', value: (r) => text(r.event_id), align: 'left', min: 24, keep: Infinity },
  { header: 'TYPE', value: (r) => text(r.event_type), align: 'left', min: 12, keep: 75 },
  { header: 'TRY', value: (r) => text(r.attempt), align: 'right', min: 3, shrink: false, keep: 80 },
  { header: 'STATUS', value: (r) => (r.status_code === null ? '-' : text(r.status_code)), align: 'right', min: 6, shrink: false, keep: 95 },
  { header: 'MS', value: (r) => text(r.duration_ms), align: 'right', min: 5, shrink: false, keep: 60 },
  { header: 'ERROR', value: (r) => text(r.error), align: 'left', min: 18, keep: 92 },
];

export function webhookTable(width: number, color: boolean): TableFormatter {
  return new TableFormatter(WEBHOOK_COLUMNS, width, color);
}

export function deliveryTable(width: number, color: boolean): TableFormatter {
  return new TableFormatter(DELIVERY_COLUMNS, width, color);
}

/** A webhook down the page: its fields in a fixed order, filters on one line. */
export function webhookRecord(w: Row): Row {
  const out: Row = {
    id: w.id,
    url: w.url,
    events: Array.isArray(w.events) ? w.events.join(', ') : w.events,
    filters: filtersText(w.filters) || '(none)',
    status: w.status,
    created_at: w.created_at,
    failing_since: w.failing_since,
  };
  if (w.previous_secret_expires_at) out.previous_secret_expires_at = w.previous_secret_expires_at;
  if (w.secret) out.secret = w.secret;
  return out;
}
