import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import {
  UnsafeDestinationError,
  assertPublicAnswers,
  isPublicAddress,
  normalizeLookupAnswer,
} from './address-guard.js';

/**
 * Dispatcher for webhook deliveries that can only connect to public addresses.
 *
 * The check happens inside the socket's own DNS lookup, and the socket then
 * connects to exactly the answers that were checked. Resolving once up front
 * and connecting later by name would let a rebinding DNS server answer
 * "public" to the check and "127.0.0.1" to the connect.
 *
 * Use it with `undici.request(url, { dispatcher })`. `request` does not follow
 * redirects (undici 7 only does so through the redirect interceptor, which
 * must not be composed onto this dispatcher): a 3xx to http://169.254.169.254/
 * would otherwise bypass checkWebhookUrl. Treat 3xx as a failed delivery.
 * Still run checkWebhookUrl first; this layer guards addresses only, not the
 * scheme/port policy.
 */

export interface SafeDispatcherOptions {
  allowInsecure: boolean;
  /** Resolver to guard; defaults to dns.lookup. Injected in tests. */
  lookup?: LookupFunction;
  connectTimeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Wraps a dns.lookup-style resolver so it always resolves every address,
 * refuses the whole name if any answer is non-public, and replies in whichever
 * shape the caller (net.connect, with or without autoSelectFamily) asked for.
 */
export function createGuardedLookup(base: LookupFunction, allowInsecure: boolean): LookupFunction {
  return (hostname, options, callback) => {
    let done = false;
    const finish: typeof callback = (err, address, family) => {
      // A misbehaving resolver must not make net.connect see two answers.
      if (done) return;
      done = true;
      callback(err, address, family);
    };
    const wantAll = options?.all === true;
    const fail = (err: NodeJS.ErrnoException): void => finish(err, wantAll ? [] : '', undefined);
    try {
      base(hostname, { ...options, all: true }, (err, address, family) => {
        if (err) return fail(err);
        let answers: dns.LookupAddress[];
        try {
          answers = normalizeLookupAnswer(address, family);
          if (!allowInsecure) assertPublicAnswers(hostname, answers);
          else if (answers.length === 0) throw new UnsafeDestinationError('no_addresses', hostname);
        } catch (e) {
          return fail(e as NodeJS.ErrnoException);
        }
        if (wantAll) finish(null, answers);
        else finish(null, answers[0].address, answers[0].family);
      });
    } catch (e) {
      fail(e as NodeJS.ErrnoException);
    }
  };
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export function createSafeDispatcher(opts: SafeDispatcherOptions): Dispatcher {
  const lookup = createGuardedLookup(opts.lookup ?? (dns.lookup as LookupFunction), opts.allowInsecure);
  const connectOnce = buildConnector({
    timeout: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    lookup,
  });
  // net.connect skips the lookup hook entirely for IP literals, so those have
  // to be checked here before any socket is opened.
  const connect: buildConnector.connector = (connectOpts, callback) => {
    const host = stripBrackets(connectOpts.hostname);
    if (!opts.allowInsecure && net.isIP(host) !== 0 && !isPublicAddress(host)) {
      const err = new UnsafeDestinationError('non_public_address', host, host);
      queueMicrotask(() => callback(err, null));
      return;
    }
    connectOnce(connectOpts, callback);
  };
  return new Agent({ connect });
}
