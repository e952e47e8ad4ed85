// `bolag listen --forward-to URL`: passes a verified delivery on, byte for byte, with its
// headers and its query string, following no redirect; the status is reported.
import { Agent, request } from 'undici';
import type { ReceivedDelivery } from './receiver.js';

/** Hop-by-hop and connection-specific headers are not passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
]);

export interface ForwardResult {
  status: number | null;
  durationMs: number;
  error?: string;
}

/** The target URL: forward-to's own URL, with the received query string appended unchanged. */
export function forwardUrl(target: string, receivedUrl: string): string {
  const q = receivedUrl.indexOf('?');
  if (q < 0) return target;
  const query = receivedUrl.slice(q + 1);
  if (query === '') return target;
  const hash = target.indexOf('#');
  const base = hash < 0 ? target : target.slice(0, hash);
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

export class Forwarder {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 32 });

  constructor(
    private readonly target: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async forward(d: ReceivedDelivery): Promise<ForwardResult> {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(d.headers)) {
      if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    }
    const started = performance.now();
    try {
      const res = await request(forwardUrl(this.target, d.url), {
        method: 'POST',
        headers,
        body: d.raw,
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      await res.body.dump().catch(() => undefined);
      return { status: res.statusCode, durationMs: Math.round(performance.now() - started) };
    } catch (e) {
      const err = e as { code?: string; message?: string };
      return { status: null, durationMs: Math.round(performance.now() - started), error: err.code ?? err.message ?? String(e) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
