// Where a webhook may deliver (contract §2.7): https, port 443, no user info, and no host
// that is or resolves to an internal address. Checked when a webhook is created or its URL
// changed (here) and again at every delivery (delivery.ts, through the safe dispatcher).
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { ApiError } from '../core/errors.js';
import { checkWebhookUrl, isPublicAddress, normalizeLookupAnswer } from './address-guard.js';

export interface UrlPolicy {
  allowInsecure: boolean;
  /** The resolver to use; dns.lookup by default. Tests inject a scripted one. */
  lookup?: LookupFunction;
}

const REASONS: Record<string, string> = {
  invalid_url: 'is not a valid absolute URL',
  unsupported_scheme: 'must use https',
  https_required: 'must use https',
  port_not_allowed: 'must use the default https port 443',
  userinfo_not_allowed: 'must not contain a user name or password',
  invalid_host: 'has no host',
  internal_address: 'points to an internal, private or reserved address',
  internal_hostname: 'names an internal or reserved host (a name without a dot, localhost, .local, .internal, .example, .test and the like are never public)',
  resolves_internal: 'resolves to an internal, private or reserved address',
  not_plain: 'must be written plainly, as https://host/path, with no spaces or backslashes',
};

/**
 * The URL as typed must be the URL as read: `https:1.1.1.1`, a leading space or
 * `https://1.1.1.1\@127.0.0.1/` parse (WHATWG) to a public host here, but a receiver's log, a
 * proxy or another parser may read them otherwise, and they are stored as typed. Asked when a
 * URL is set, not at delivery: a webhook stored before this rule keeps receiving.
 */
const PLAIN_URL = /^https?:\/\/[^\s\\]+$/i;

const CREATION_LOOKUP_TIMEOUT_MS = 3000;

/** The static rules; a reason code on refusal. */
export function staticUrlCheck(url: string, policy: UrlPolicy): { ok: true; url: URL } | { ok: false; reason: string } {
  const checked = checkWebhookUrl(url, { allowInsecure: policy.allowInsecure });
  if (!checked.ok) return checked;
  // User info is refused even in insecure mode: credentials in a URL end up in logs.
  if (checked.url.username !== '' || checked.url.password !== '') return { ok: false, reason: 'userinfo_not_allowed' };
  return checked;
}

function lookupAll(lookup: LookupFunction, host: string): Promise<dns.LookupAddress[] | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), CREATION_LOOKUP_TIMEOUT_MS);
    try {
      lookup(host, { all: true }, (err, address, family) => {
        clearTimeout(timer);
        resolve(err ? null : normalizeLookupAnswer(address as string | dns.LookupAddress[], family));
      });
    } catch {
      clearTimeout(timer);
      resolve(null);
    }
  });
}

/**
 * The creation-time check: the static rules, then the name's current answers. A name that
 * does not resolve now is accepted (delivery checks again and refuses what it must); a name
 * with any internal answer is refused.
 */
export async function assertWebhookUrl(url: string, policy: UrlPolicy, param = 'url'): Promise<void> {
  // Other schemes are refused below for their scheme.
  const checked: ReturnType<typeof staticUrlCheck> = /^\s*https?:/i.test(url) && !PLAIN_URL.test(url) ? { ok: false, reason: 'not_plain' } : staticUrlCheck(url, policy);
  if (!checked.ok) throw new ApiError('invalid_body', `Invalid ${param}: it ${REASONS[checked.reason] ?? checked.reason}.`, param);
  if (policy.allowInsecure) return;
  const host = checked.url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (net.isIP(host) !== 0) return;
  const answers = await lookupAll(policy.lookup ?? (dns.lookup as LookupFunction), host);
  if (answers && answers.some((a) => !isPublicAddress(a.address))) {
    throw new ApiError('invalid_body', `Invalid ${param}: it ${REASONS.resolves_internal}.`, param);
  }
}
