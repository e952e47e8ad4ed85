// The export record as the CLI reads it (contract §2.6).
export interface ExportFile {
  name: string;
  url: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface ExportRecord {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  format: 'csv' | 'jsonl';
  filters: Record<string, unknown>;
  fields: string[] | null;
  estimated_rows: number;
  row_count: number | null;
  files: ExportFile[];
  download_url: string | null;
  expires_at: string | null;
  created_at: string;
  completed_at: string | null;
  error: { code: string; message: string } | null;
}
