// Serving export files behind signed links: one part (with byte ranges) or a ZIP of all parts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { ApiError } from '../core/errors.js';
import type { ServerContext } from '../app/context.js';
import type { StoredExport } from '../store/exports.js';
import { CONTENT_TYPES, downloadName, zipName } from './files.js';
import { checkLink, type LinkTarget } from './links.js';

export type ByteRange = { start: number; end: number };

/**
 * Reads a single `Range: bytes=…` against a size: a range to serve, 'unsatisfiable' (416), or
 * null to serve the whole file (no header, several ranges, or a header we do not understand,
 * which RFC 9110 lets a server ignore).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** The export a link points at, after checking the link: 403 tampered, 410 expired, 404 gone. */
export async function exportForLink(ctx: ServerContext, exportId: string, target: LinkTarget, query: unknown): Promise<StoredExport> {
  const check = checkLink(ctx.signer, exportId, target, (query ?? {}) as Record<string, unknown>);
  if (!check.ok) {
    if (check.reason === 'expired') throw new ApiError('link_expired', 'This download link has expired: links last 24 hours after the export completes. Create the export again.');
    throw new ApiError('forbidden', 'This download link is not valid: its signature does not match.');
  }
  const e = await ctx.store.exports.getById(exportId);
  if (!e || e.status !== 'completed' || (target !== 'all' && (target < 1 || target > e.files.length))) {
    throw new ApiError('not_found', 'No such export file.');
  }
  return e;
}

async function sizeOf(ctx: ServerContext, e: StoredExport, name: string): Promise<number> {
  const size = await ctx.store.exportFiles.size(e.id, name);
  if (size === null) throw new ApiError('not_found', 'The files of this export are no longer available; create the export again.');
  return size;
}

/** One part, honouring `Range: bytes=a-b` (206) and If-Range. */
export async function sendPart(ctx: ServerContext, e: StoredExport, index: number, request: FastifyRequest, reply: FastifyReply) {
  const file = e.files[index - 1];
  const size = await sizeOf(ctx, e, file.name);
  const etag = `"${file.sha256}"`;
  reply
    .header('Content-Type', CONTENT_TYPES[e.format])
    .header('Content-Disposition', `attachment; filename="${downloadName(e, index)}"`)
    .header('Accept-Ranges', 'bytes')
    .header('ETag', etag)
    .header('Cache-Control', 'private, max-age=0')
    .header('Repr-Digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`);
  const ifRange = request.headers['if-range'];
  const rangeHeader = ifRange === undefined || ifRange === etag ? request.headers.range : undefined;
  const range = parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    throw new ApiError('range_not_satisfiable', `The requested range is not within the file (${size} bytes).`, 'Range', {
      'Content-Range': `bytes */${size}`,
    });
  }
  if (range) {
    reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${size}`).header('Content-Length', range.end - range.start + 1);
    return reply.send(isHead(request) ? noBody() : ctx.store.exportFiles.read(e.id, file.name, range));
  }
  reply.header('Content-Length', size);
  return reply.send(isHead(request) ? noBody() : ctx.store.exportFiles.read(e.id, file.name));
}

/**
 * HEAD runs the GET route; the body it sends is drained and dropped. A ZIP of every part built
 * (or one part read) for nothing was seconds of CPU for a request anyone with a link may send.
 */
const isHead = (request: FastifyRequest) => request.method === 'HEAD';

/** An empty stream, not an empty string: Fastify's HEAD route would answer Content-Length: 0 for that. */
const noBody = () => Readable.from([]);

/** download_url: the file itself for one part, a ZIP of the parts (streamed, ZIP64 when needed) otherwise. */
export async function sendDownload(ctx: ServerContext, e: StoredExport, request: FastifyRequest, reply: FastifyReply) {
  if (e.files.length === 1) return sendPart(ctx, e, 1, request, reply);
  const sizes: number[] = [];
  for (const f of e.files) sizes.push(await sizeOf(ctx, e, f.name));
  reply
    .header('Content-Type', 'application/zip')
    .header('Content-Disposition', `attachment; filename="${zipName(e)}"`)
    .header('Cache-Control', 'private, max-age=0');
  if (isHead(request)) return reply.send(noBody());
  const zip = new yazl.ZipFile();
  const mtime = new Date(e.completed_at ?? e.created_at);
  // Each part is read when the ZIP reaches it, so one download holds one part's stream at a time.
  e.files.forEach((f, i) =>
    zip.addReadStreamLazy(downloadName(e, i + 1), { mtime, compress: true, size: sizes[i] }, (cb) => {
      const part = ctx.store.exportFiles.read(e.id, f.name);
      // yazl listens for no error of a part: one unread (its file swept while the ZIP streamed,
      // a database gone) was an unhandled 'error' that ended the whole server. It ends this
      // download only.
      part.on('error', (err: Error) => {
        request.log.warn({ err, export_id: e.id, part: f.name }, 'export part unreadable during a ZIP download');
        (zip.outputStream as Readable).destroy(err);
      });
      cb(null, part as never);
    }),
  );
  zip.end();
  return reply.send(zip.outputStream);
}
