// What every route and worker of the server shares. Built once per app.
import type { LookupFunction } from 'node:net';
import type { Store } from '../store/store.js';
import type { RateLimiter } from './rate-limit.js';
import type { Signer } from './signer.js';
import type { ProblemLog } from './problem-log.js';

export interface ServerOptions {
  /** Public address of the API for links the server hands out: the service root, a mount point
   *  or the base URL itself (normalised by publicApiBase() to end in /api/public/v1). */
  publicUrl?: string;
  allowInsecureWebhooks?: boolean;
  /** Requests per key per window; 0 turns the limit off. */
  rateLimit?: { max: number; windowMs: number };
  webhookRetryScheduleSeconds?: readonly number[];
  webhookDisableAfterSeconds?: number;
  /** Webhooks one account may have (LIMITS.webhooksPerAccount by default). */
  webhooksPerAccount?: number;
  /** Resolver for webhook hosts (creation check and delivery); dns.lookup by default. Tests inject one. */
  webhookLookup?: LookupFunction;
  exportPartRows?: number;
  /** Log on stderr: every request (true, --verbose), or only warnings and errors ('warn', `bolag serve`'s default). */
  logger?: boolean | 'warn';
  /** How long finished records are kept, and how often the sweeper runs (src/retention/); defaults there. */
  retention?: Partial<{ finishedJobsMs: number; deliveryLogMs: number; expiredExportsMs: number; idempotencyKeysMs: number; eventsMs: number; everyMs: number }>;
  /** How long requests (and webhook attempts) in flight get to finish when the server closes (default 10 s). */
  shutdownGraceMs?: number;
  /**
   * Run background workers (exports, webhook deliveries) in this process. 'unless-served': only
   * while no `bolag serve` process runs on the same database (the CLI's in-process register on a
   * serve's SQLite file leaves the work to it, with its settings and its public URL).
   */
  workers?: boolean | 'unless-served';
  /** Serve the API reference page at /docs (default true; the CLI's in-process register skips it). */
  docs?: boolean;
}

export interface ServerContext {
  store: Store;
  signer: Signer;
  options: ServerOptions;
  rateLimiter: RateLimiter | null;
  /** Resolved at listen time when publicUrl is not given. */
  baseUrl: () => string;
  /** Where background failures are said (nowhere without a logger). */
  problems: ProblemLog;
}

export { API_PREFIX } from '../core/public-url.js';
