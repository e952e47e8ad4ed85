// The one HTTP client of every command, on undici: base URL, API key, User-Agent, timeouts,
// retries with backoff on 429/503 (honouring Retry-After) and on network errors, and typed
// errors that carry the server's request id.
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { ApiRequestError, NetworkError } from './errors/index.js';
import { errorFromResponse, errorMessageOf } from './http/error-from-response.js';
import { backoffMs, isIdempotent, neverSent, parseRetryAfter, sleep } from './http/retry.js';

export type QueryValue = string | number | boolean | readonly string[] | null | undefined;
export type QueryInput = Record<string, QueryValue>;

export interface HttpClientOptions {
  /** Ends with /api/public/v1. */
  baseUrl: string;
  apiKey?: string;
  userAgent: string;
  /** Time to wait for the response headers (default 30 s). */
  timeoutMs?: number;
  /** Time allowed between two chunks of a body (default 60 s). */
  bodyTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Retries after the first attempt on 429 and 503 (default 4). */
  retries?: number;
  /** Retries after the first attempt on network errors (default 2). */
  networkRetries?: number;
  retryBaseMs?: number;
  retryCapMs?: number;
  /** A Retry-After longer than this is not waited for: the 429 is reported (default 60 s). */
  maxRetryAfterMs?: number;
  /** Called with one line per request and per retry (--verbose). */
  log?: (line: string) => void;
  /**
   * Called before a wait of a second or more for a 429 or 503 (its Retry-After), with the
   * response's error message if it has one, so that a long pause is explained.
   */
  onWait?: (status: number, waitMs: number, said?: string) => void;
  dispatcher?: Dispatcher;
}

export interface RequestOptions {
  query?: QueryInput;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** false: one attempt only. */
  retry?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  requestId?: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface StreamResponse {
  status: number;
  body: Readable;
  requestId?: string;
  headers: Record<string, string | string[] | undefined>;
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;

  constructor(private readonly opts: HttpClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.ownsDispatcher = opts.dispatcher === undefined;
    this.dispatcher =
      opts.dispatcher ??
      new Agent({ keepAliveTimeout: 10_000, connect: { timeout: opts.connectTimeoutMs ?? 10_000 } });
  }

  get<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, opts);
  }

  post<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, { ...opts, body });
  }

  patch<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('PATCH', path, { ...opts, body });
  }

  delete<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, opts);
  }

  /** A JSON request; resolves with the parsed body of a 2xx answer, throws a typed error otherwise. */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const res = await this.send(method, path, opts);
    const text = await res.body.text();
    const data = text === '' ? (undefined as T) : parseJsonAnswer<T>(text, method, path, { status: res.statusCode, headers: res.headers });
    return { status: res.statusCode, data, requestId: requestIdOf(res.headers), headers: res.headers };
  }

  /** The body of a 2xx answer as bytes, undecoded (the JSONL fast path); errors as in request(). */
  async requestBytes(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<Buffer>> {
    const res = await this.send(method, path, opts);
    const data = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, data, requestId: requestIdOf(res.headers), headers: res.headers };
  }

  /** The raw body of a 2xx answer as a stream (downloads); error answers throw as in request(). */
  async stream(method: string, pathOrUrl: string, opts: RequestOptions = {}): Promise<StreamResponse> {
    const res = await this.send(method, pathOrUrl, opts);
    return { status: res.statusCode, body: res.body, requestId: requestIdOf(res.headers), headers: res.headers };
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** The absolute URL of a path under the base URL (absolute URLs pass through). */
  url(pathOrUrl: string, query?: QueryInput): string {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : this.baseUrl + (pathOrUrl.startsWith('/') ? '' : '/') + pathOrUrl;
    const qs = encodeQuery(query);
    return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
  }

  private async send(method: string, pathOrUrl: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
    const url = this.url(pathOrUrl, opts.query);
    const shown = displayPath(url.startsWith(this.baseUrl) ? url.slice(this.baseUrl.length) : url);
    const headers: Record<string, string> = {
      'user-agent': this.opts.userAgent,
      accept: 'application/json',
      ...lowerKeys(opts.headers),
    };
    if (this.opts.apiKey && sameOrigin(url, this.baseUrl)) headers.authorization = `Bearer ${this.opts.apiKey}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const idempotent = isIdempotent(method, headers);
    const retries = opts.retry === false ? 0 : (this.opts.retries ?? 4);
    const networkRetries = opts.retry === false ? 0 : (this.opts.networkRetries ?? 2);
    const base = this.opts.retryBaseMs ?? 250;
    const cap = this.opts.retryCapMs ?? 8_000;
    const maxRetryAfter = this.opts.maxRetryAfterMs ?? 60_000;

    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          dispatcher: this.dispatcher,
          headersTimeout: this.opts.timeoutMs ?? 30_000,
          bodyTimeout: this.opts.bodyTimeoutMs ?? 60_000,
          signal: opts.signal,
        });
      } catch (cause) {
        if (opts.signal?.aborted) throw cause;
        if (attempt < networkRetries && (idempotent || neverSent(cause))) {
          const wait = backoffMs(attempt, base, cap);
          this.opts.log?.(`${method} ${shown} failed (${describe(cause)}); retrying in ${wait} ms`);
          await sleep(wait, opts.signal);
          continue;
        }
        throw new NetworkError(`${method} ${shown} failed: ${describe(cause)}.`, { method, url, cause });
      }
      const requestId = requestIdOf(res.headers);
      this.opts.log?.(`${method} ${shown} → ${res.statusCode} (${Date.now() - started} ms${requestId ? `, ${requestId}` : ''})`);
      if (res.statusCode < 400) return res;

      const retryAfter = parseRetryAfter(res.headers['retry-after']);
      const retryable = res.statusCode === 429 || (res.statusCode === 503 && idempotent);
      if (retryable && attempt < retries && (retryAfter === undefined || retryAfter <= maxRetryAfter)) {
        // Small (an error body), and it may say why: an account's exports at their limit, say.
        const said = errorMessageOf(await res.body.text().catch(() => ''));
        const wait = retryAfter ?? backoffMs(attempt, base, cap);
        this.opts.log?.(`${method} ${shown}: HTTP ${res.statusCode}; retrying in ${wait} ms`);
        if (wait >= 1000) this.opts.onWait?.(res.statusCode, wait, said);
        await sleep(wait, opts.signal);
        continue;
      }
      const bodyText = await res.body.text().catch(() => '');
      throw errorFromResponse({
        method,
        path: shown,
        status: res.statusCode,
        bodyText,
        requestIdHeader: requestId,
        retryAfter: retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1000),
      });
    }
  }
}

/** A 2xx answer's body as JSON, or the error that names the request that answered with something else. */
export function parseJsonAnswer<T>(text: string, method: string, path: string, res: Pick<ApiResponse<unknown>, 'status' | 'headers'>): T {
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new ApiRequestError(`${method} ${displayPath(path)} answered with a body that is not JSON.`, {
      method,
      path: displayPath(path),
      status: res.status,
      code: 'invalid_response',
      requestId: requestIdOf(res.headers),
    }, { hint: String(cause) });
  }
}

export function encodeQuery(query: QueryInput | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params.toString();
}

function requestIdOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const v = headers['request-id'];
  return Array.isArray(v) ? v[0] : v;
}

function lowerKeys(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** A path for messages: no host, and no secrets in the query (cursors are long: shortened). */
function displayPath(pathOrUrl: string): string {
  const s = pathOrUrl.replace(/^https?:\/\/[^/]+/, '');
  return s.replace(/(cursor=)([^&]{24})[^&]+/, '$1$2…');
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  const message = e?.cause?.message ?? e?.message ?? String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
