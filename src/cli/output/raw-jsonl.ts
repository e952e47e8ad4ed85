// `--format jsonl` on the fast path: each record is the server's own compact JSON bytes
// (see paging/raw-page.ts), joined with newlines, never decoded or re-encoded.

const NEWLINE = Buffer.from('\n');

export class RawJsonlFormatter {
  start(): string {
    return '';
  }

  page(rows: readonly Buffer[]): Buffer {
    const parts: Buffer[] = [];
    for (const row of rows) parts.push(row, NEWLINE);
    return Buffer.concat(parts);
  }

  end(): string {
    return '';
  }
}
