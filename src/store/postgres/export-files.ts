// Export files in the database, so that any replica serves any export: each part is stored as
// chunks of up to 1 MiB (bytea rows), written as the export worker produces them. A part's
// chunks carry the token of the writer; finishing the part points export_parts at that writer's
// chunks in one transaction, so readers see either no part or a whole one, never a partial file.
// A byte range reads only the chunks it overlaps, a few at a time, so memory stays bounded.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ByteRange, ExportFiles, PartSink } from '../store.js';
import type { PgDb } from './database.js';

export const CHUNK_BYTES = 1024 * 1024;

/** A failed write (or clearing) in the database is a storage failure of the export (as a full disk is on SQLite). */
async function storing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    throw Object.assign(new Error(`Writing an export part to the database failed: ${(e as Error).message}`), { code: 'EIO', cause: e });
  }
}
/** Chunks fetched per query while streaming. */
const CHUNKS_PER_READ = 4;

export class PgExportFiles implements ExportFiles {
  constructor(private readonly db: PgDb) {}

  async createPart(exportId: string, name: string): Promise<PartSink> {
    const db = this.db;
    const run = randomBytes(9).toString('base64url');
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let written = 0;
    let seq = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await storing(
        db.query('INSERT INTO export_chunks (export_id, part, run, seq, start_byte, data) VALUES ($1, $2, $3, $4, $5, $6)', [exportId, name, run, seq++, written, data]),
      );
      written += data.length;
    };
    return {
      async write(bytes) {
        let offset = 0;
        while (offset < bytes.length) {
          const take = Math.min(bytes.length - offset, CHUNK_BYTES - pendingBytes);
          // Copied: the caller may reuse its buffer once write resolves.
          pending.push(Buffer.from(bytes.subarray(offset, offset + take)));
          pendingBytes += take;
          offset += take;
          if (pendingBytes >= CHUNK_BYTES) await flush();
        }
      },
      async finish() {
        await flush();
        await storing(db.tx(async (client) => {
          // Two runs finishing one part at the same moment take turns, so one part row remains.
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`export-part:${exportId}/${name}`]);
          await client.query(
            `INSERT INTO export_parts (export_id, part, run, bytes) VALUES ($1, $2, $3, $4)
             ON CONFLICT (export_id, part, run) DO NOTHING`,
            [exportId, name, run, written],
          );
          // A finished part of the same name from an earlier run gives way to this one, and its
          // chunks go with it. (Chunks of a run that never finished are removed by clear().)
          const replaced = await client.query<{ run: string }>('DELETE FROM export_parts WHERE export_id = $1 AND part = $2 AND run <> $3 RETURNING run', [
            exportId,
            name,
            run,
          ]);
          if (replaced.rows.length > 0) {
            await client.query('DELETE FROM export_chunks WHERE export_id = $1 AND part = $2 AND run = ANY($3)', [exportId, name, replaced.rows.map((r) => r.run)]);
          }
        }));
      },
      async abort() {
        pending = [];
        pendingBytes = 0;
        await db.query('DELETE FROM export_chunks WHERE export_id = $1 AND part = $2 AND run = $3', [exportId, name, run]);
      },
    };
  }

  async size(exportId: string, name: string): Promise<number | null> {
    const r = await this.db.query<{ bytes: number }>('SELECT bytes FROM export_parts WHERE export_id = $1 AND part = $2', [exportId, name]);
    return r.rows[0]?.bytes ?? null;
  }

  read(exportId: string, name: string, range?: ByteRange): NodeJS.ReadableStream {
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      const part = await db.query<{ run: string; bytes: number }>('SELECT run, bytes FROM export_parts WHERE export_id = $1 AND part = $2', [exportId, name]);
      const found = part.rows[0];
      if (!found) throw Object.assign(new Error('export part not found'), { code: 'ENOENT' });
      const start = range?.start ?? 0;
      const end = Math.min(range?.end ?? found.bytes - 1, found.bytes - 1);
      let from = start;
      while (from <= end) {
        const r = await db.query<{ start_byte: number; data: Buffer }>(
          `SELECT start_byte, data FROM export_chunks
           WHERE export_id = $1 AND part = $2 AND run = $3 AND start_byte + length(data) > $4 AND start_byte <= $5
           ORDER BY seq LIMIT $6`,
          [exportId, name, found.run, from, end, CHUNKS_PER_READ],
        );
        if (r.rows.length === 0) throw new Error('export part is missing chunks');
        for (const c of r.rows) {
          const a = Math.max(from, c.start_byte) - c.start_byte;
          const b = Math.min(end + 1, c.start_byte + c.data.length) - c.start_byte;
          if (b > a) yield c.data.subarray(a, b);
          from = c.start_byte + b;
        }
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async clear(exportId: string): Promise<void> {
    await storing(
      this.db.tx(async (client) => {
        await client.query('DELETE FROM export_parts WHERE export_id = $1', [exportId]);
        await client.query('DELETE FROM export_chunks WHERE export_id = $1', [exportId]);
      }),
    );
  }
}
