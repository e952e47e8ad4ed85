// A local webhook receiver (the core of `bolag listen`): takes POSTs on any path, verifies the
// Bolag-Signature over the raw bytes with any of its secrets, answers 2xx at once (400 on a
// bad signature), skips event ids it has already seen, and hands each new delivery on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_HEADERS } from '../../core/events.js';
import { LIMITS } from '../../core/values.js';
import { verifySignature, type VerifyResult } from '../signature.js';
import { SeenIds } from './seen-ids.js';

export interface ReceivedDelivery {
  eventId: string;
  eventType: string;
  /** Path and query string as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The exact bytes received. */
  raw: Buffer;
  receivedAt: Date;
}

export interface Rejection {
  reason: Exclude<VerifyResult, { ok: true }>['reason'] | 'missing_signature' | 'too_large' | 'method_not_allowed';
  url: string;
  eventId?: string;
}

export interface ReceiverOptions {
  port: number;
  host?: string;
  /** Read at each request, so secrets can be added after the receiver is up. */
  secrets: () => readonly string[];
  toleranceSeconds?: number;
  maxBodyBytes?: number;
  dedupeCapacity?: number;
  onDelivery(d: ReceivedDelivery): void;
  onDuplicate?(d: ReceivedDelivery): void;
  onReject?(r: Rejection): void;
}

export interface RunningReceiver {
  url: string;
  port: number;
  close(): Promise<void>;
}

const SIG = DELIVERY_HEADERS.signature.toLowerCase();
const ID = DELIVERY_HEADERS.id.toLowerCase();
const TYPE = DELIVERY_HEADERS.type.toLowerCase();

const RECEIVED = '{"received":true}';
const RECEIVED_HEADERS = { 'content-type': 'application/json', 'content-length': String(RECEIVED.length) };

function answer(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The event id and type: from the body, which the signature covers, else from the headers. The
 * headers are not signed: taken first, a captured delivery replayed under another
 * Bolag-Event-Id passed the duplicate check and ran --exec and --forward-to again.
 */
function identify(headers: http.IncomingHttpHeaders, raw: Buffer): { id: string; type: string } {
  let id = '';
  let type = '';
  try {
    const parsed = JSON.parse(raw.toString('utf8')) as { id?: unknown; type?: unknown };
    if (typeof parsed.id === 'string') id = parsed.id;
    if (typeof parsed.type === 'string') type = parsed.type;
  } catch {
    // Not JSON: named by its headers, if at all.
  }
  if (!id && typeof headers[ID] === 'string') id = headers[ID] as string;
  if (!type && typeof headers[TYPE] === 'string') type = headers[TYPE] as string;
  return { id, type };
}

export async function startWebhookReceiver(opts: ReceiverOptions): Promise<RunningReceiver> {
  const seen = new SeenIds(opts.dedupeCapacity);
  const maxBody = opts.maxBodyBytes ?? 5 * LIMITS.bodyMaxBytes;
  const tolerance = opts.toleranceSeconds ?? LIMITS.signatureToleranceSeconds;

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      answer(res, 405, { error: 'method_not_allowed' });
      opts.onReject?.({ reason: 'method_not_allowed', url });
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      if (tooLarge) return;
      size += c.length;
      if (size > maxBody) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (tooLarge) {
        answer(res, 413, { error: 'too_large' });
        opts.onReject?.({ reason: 'too_large', url });
        return;
      }
      const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      const header = req.headers[SIG];
      const { id, type } = identify(req.headers, raw);
      if (typeof header !== 'string' || header === '') {
        answer(res, 400, { error: 'missing_signature' });
        opts.onReject?.({ reason: 'missing_signature', url, eventId: id || undefined });
        return;
      }
      const verdict = verifySignature({ rawBody: raw, header, secrets: opts.secrets(), toleranceSeconds: tolerance });
      if (!verdict.ok) {
        answer(res, 400, { error: verdict.reason });
        opts.onReject?.({ reason: verdict.reason, url, eventId: id || undefined });
        return;
      }
      // Answer first: the sender's clock stops here, whatever we do with the event next.
      res.writeHead(200, RECEIVED_HEADERS);
      res.end(RECEIVED);
      const delivery: ReceivedDelivery = { eventId: id, eventType: type, url, headers: req.headers, raw, receivedAt: new Date() };
      if (id && !seen.add(id)) opts.onDuplicate?.(delivery);
      else opts.onDelivery(delivery);
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}
