// The stored export as the API shows it (contract §2.6): links are computed, never stored,
// and signed to expire with the export.
import type { ExportRecord } from '../core/exports.js';
import type { ServerContext } from '../app/context.js';
import type { StoredExport } from '../store/exports.js';
import { downloadName } from './files.js';
import { signedLink } from './links.js';

export type ExportView = Omit<ExportRecord, 'files'> & {
  files: { name: string; url: string; rows: number; bytes: number; sha256: string }[];
};

export function presentExport(ctx: Pick<ServerContext, 'signer' | 'baseUrl'>, e: StoredExport): ExportView {
  const ready = e.status === 'completed' && e.expires_at !== null;
  const expires = ready ? Math.floor(Date.parse(e.expires_at!) / 1000) : 0;
  const base = ctx.baseUrl();
  return {
    id: e.id,
    status: e.status,
    format: e.format,
    filters: e.filters,
    fields: e.fields,
    estimated_rows: e.estimated_rows,
    row_count: e.row_count,
    files: ready
      ? e.files.map((f, i) => ({
          name: downloadName(e, i + 1),
          url: signedLink(ctx.signer, base, e.id, i + 1, expires),
          rows: f.rows,
          bytes: f.bytes,
          sha256: f.sha256,
        }))
      : [],
    download_url: ready ? signedLink(ctx.signer, base, e.id, 'all', expires) : null,
    expires_at: e.expires_at,
    created_at: e.created_at,
    completed_at: e.completed_at,
    error: e.error,
  };
}
