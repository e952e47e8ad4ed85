// One delivery attempt: POST the exact body bytes with their signature, within the timeout,
// following no redirect. Never throws; every outcome becomes a result to record.
import { request, type Dispatcher } from 'undici';
import { DELIVERY_HEADERS } from '../core/events.js';
import { UnsafeDestinationError } from './address-guard.js';

export interface DeliveryRequest {
  url: string;
  body: string;
  eventId: string;
  eventType: string;
  signature: string;
}

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export function deliveryHeaders(r: Pick<DeliveryRequest, 'eventId' | 'eventType' | 'signature'>): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': DELIVERY_HEADERS.userAgent,
    [DELIVERY_HEADERS.id.toLowerCase()]: r.eventId,
    [DELIVERY_HEADERS.type.toLowerCase()]: r.eventType,
    [DELIVERY_HEADERS.signature.toLowerCase()]: r.signature,
  };
}

function findCause<T>(err: unknown, test: (e: unknown) => e is T): T | undefined {
  const seen = new Set<unknown>();
  for (let e = err; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if (test(e)) return e;
  }
  return undefined;
}

/** A short, secret-free description of why an attempt failed. */
export function describeError(err: unknown, timeoutMs: number): string {
  const unsafe = findCause(err, (e): e is UnsafeDestinationError => e instanceof UnsafeDestinationError);
  // Never the address the name resolved to: the account would learn our internal network's
  // addresses name by name (a webhook pointed at db.internal, say).
  if (unsafe) return `refused destination: ${unsafe.reason}`;
  const codes = new Set<string>();
  const names = new Set<string>();
  const seen = new Set<unknown>();
  for (let e = err; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { code, name } = e as { code?: unknown; name?: unknown };
    if (typeof code === 'string') codes.add(code);
    if (typeof name === 'string') names.add(name);
  }
  if (names.has('TimeoutError') || [...codes].some((c) => c.endsWith('_TIMEOUT') || c === 'ETIMEDOUT')) {
    return `timed out after ${timeoutMs} ms`;
  }
  if (codes.has('ECONNREFUSED')) return 'connection refused';
  if (codes.has('ENOTFOUND') || codes.has('EAI_AGAIN')) return 'host not found';
  if (codes.has('ECONNRESET') || codes.has('UND_ERR_SOCKET')) return 'connection reset';
  const code = [...codes][0];
  const message = err instanceof Error ? err.message : String(err);
  return (code ? `${code}: ${message}` : message).slice(0, 300);
}

export async function sendDelivery(
  r: DeliveryRequest,
  opts: { dispatcher: Dispatcher; timeoutMs: number; signal?: AbortSignal },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await request(r.url, {
      method: 'POST',
      body: r.body,
      headers: deliveryHeaders(r),
      dispatcher: opts.dispatcher,
      signal: opts.signal ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]) : AbortSignal.timeout(opts.timeoutMs),
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    // The answer's body is not used; drain a little so the connection can be reused.
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const code = res.statusCode;
    if (code >= 200 && code < 300) return { ok: true, statusCode: code, durationMs: elapsed(), error: null };
    const error = code >= 300 && code < 400 ? `redirect not followed (HTTP ${code})` : `HTTP ${code}`;
    return { ok: false, statusCode: code, durationMs: elapsed(), error };
  } catch (err) {
    return { ok: false, statusCode: null, durationMs: elapsed(), error: describeError(err, opts.timeoutMs) };
  }
}
