import dns from 'node:dns';
import net from 'node:net';

/**
 * SSRF guard for webhook destinations. The static checks here (checkWebhookUrl)
 * only reject what is visibly internal; names must still be resolved and every
 * answer checked at connect time (see safe-dispatcher.ts), otherwise a public
 * name pointing at 127.0.0.1 or a rebinding DNS server walks straight through.
 */

export type UnsafeReason =
  | 'non_public_address'
  | 'no_addresses'
  | 'invalid_address';

export class UnsafeDestinationError extends Error {
  readonly code = 'ERR_UNSAFE_DESTINATION';
  readonly reason: UnsafeReason;
  readonly host: string;
  readonly address: string | undefined;

  constructor(reason: UnsafeReason, host: string, address?: string) {
    super(
      address === undefined
        ? `Refusing webhook destination ${host}: ${reason}`
        : `Refusing webhook destination ${host} (${address}): ${reason}`,
    );
    this.name = 'UnsafeDestinationError';
    this.reason = reason;
    this.host = host;
    this.address = address;
  }
}

// [network, prefix length]. Anything here is not globally routable unicast, or
// is an address a webhook has no business reaching (docs, benchmarking, relays).
const V4_BLOCKED: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", includes 0.0.0.0 which Linux routes to localhost
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints live here
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes 255.255.255.255 broadcast
];

function v4ToInt(ip: string): number {
  const p = ip.split('.').map(Number);
  return ((p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]) >>> 0;
}

const V4_BLOCKED_INT = V4_BLOCKED.map(([base, len]) => {
  const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
  return { base: (v4ToInt(base) & mask) >>> 0, mask };
});

function isPublicV4Int(n: number): boolean {
  return !V4_BLOCKED_INT.some(({ base, mask }) => ((n & mask) >>> 0) === base);
}

function bytesToV4Int(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

/** Expands a (net.isIPv6-valid, zone-free) IPv6 string into 16 bytes. */
function parseIPv6(ip: string): Uint8Array | null {
  let text = ip;
  const tail: number[] = [];
  // A dotted IPv4 suffix (::ffff:1.2.3.4) becomes the last two groups.
  const lastColon = text.lastIndexOf(':');
  const maybeV4 = text.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    if (!net.isIPv4(maybeV4)) return null;
    const n = v4ToInt(maybeV4);
    tail.push(n >>> 16, n & 0xffff);
    text = text.slice(0, lastColon + 1);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string): number[] =>
    s === '' ? [] : s.split(':').map((g) => parseInt(g, 16));
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  const explicit = head.length + rest.length + tail.length;
  if (explicit > 8 || (halves.length === 1 && explicit !== 8)) return null;
  const groups = [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
  if (groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

function isPublicV6(b: Uint8Array): boolean {
  const zeroUpTo = (n: number): boolean => b.subarray(0, n).every((x) => x === 0);
  if (zeroUpTo(10)) {
    // ::ffff:a.b.c.d reaches the embedded v4 on dual-stack sockets.
    if (b[10] === 0xff && b[11] === 0xff) return isPublicV4Int(bytesToV4Int(b, 12));
    // ::, ::1 and deprecated IPv4-compatible ::a.b.c.d: never a legitimate target.
    return false;
  }
  // NAT64 well-known prefix 64:ff9b::/96 translates to the embedded v4.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b.subarray(4, 12).every((x) => x === 0)) {
    return isPublicV4Int(bytesToV4Int(b, 12));
  }
  // Only 2000::/3 is global unicast; this drops fc00::/7, fe80::/10, fec0::/10,
  // ff00::/8, 100::/64, 64:ff9b:1::/48 and the rest of ::/8 in one go.
  if ((b[0] & 0xe0) !== 0x20) return false;
  // 6to4 routes to the embedded v4.
  if (b[0] === 0x20 && b[1] === 0x02) return isPublicV4Int(bytesToV4Int(b, 2));
  // 2001::/23 IETF assignments: Teredo (2001::/32), benchmarking, ORCHID.
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] <= 0x01) return false;
  // Documentation: 2001:db8::/32 and 3fff::/20.
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return false;
  if (b[0] === 0x3f && b[1] === 0xff && (b[2] & 0xf0) === 0) return false;
  return true;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * True only for a canonical IPv4/IPv6 literal that is public unicast.
 * Anything unparseable is treated as non-public: callers use this as a gate.
 */
export function isPublicAddress(ip: string): boolean {
  const s = stripBrackets(ip);
  // Zone ids only make sense for link-scoped addresses.
  if (s.includes('%')) return false;
  if (net.isIPv4(s)) return isPublicV4Int(v4ToInt(s));
  if (net.isIPv6(s)) {
    const bytes = parseIPv6(s);
    return bytes !== null && isPublicV6(bytes);
  }
  return false;
}

// Suffixes that resolve (if at all) only inside some private network.
const INTERNAL_SUFFIXES = [
  'localhost', 'local', 'internal', 'localdomain', 'lan', 'intranet', 'corp',
  'private', 'home.arpa', 'arpa', 'test', 'invalid', 'example', 'onion',
];

function isInternalName(name: string): boolean {
  // Single-label names are completed with resolv.conf search domains.
  if (!name.includes('.')) return true;
  return INTERNAL_SUFFIXES.some((s) => name === s || name.endsWith(`.${s}`));
}

export function checkWebhookUrl(
  url: string,
  opts: { allowInsecure: boolean },
): { ok: true; url: URL } | { ok: false; reason: string } {
  let parsed: URL;
  try {
    // WHATWG parsing canonicalises 0x7f000001, 2130706433, 0177.0.0.1 and
    // 127.1 to dotted form, so the IP check below sees the real address.
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'invalid_url' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { ok: false, reason: 'unsupported_scheme' };
  }
  if (opts.allowInsecure) return { ok: true, url: parsed };
  if (parsed.protocol !== 'https:') return { ok: false, reason: 'https_required' };
  // URL drops an explicit default port, so any remaining port is not 443.
  if (parsed.port !== '') return { ok: false, reason: 'port_not_allowed' };
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'userinfo_not_allowed' };
  }
  const host = stripBrackets(parsed.hostname).replace(/\.+$/, '');
  if (host === '') return { ok: false, reason: 'invalid_host' };
  if (net.isIP(host) !== 0) {
    return isPublicAddress(host) ? { ok: true, url: parsed } : { ok: false, reason: 'internal_address' };
  }
  if (isInternalName(host)) return { ok: false, reason: 'internal_hostname' };
  return { ok: true, url: parsed };
}

/** Flattens the two callback shapes of dns.lookup into one list. */
export function normalizeLookupAnswer(
  address: string | readonly dns.LookupAddress[] | undefined,
  family?: number,
): dns.LookupAddress[] {
  if (Array.isArray(address)) return address.map((a) => ({ address: a.address, family: a.family }));
  if (typeof address === 'string' && address !== '') {
    return [{ address, family: family ?? net.isIP(address) }];
  }
  return [];
}

/** Throws unless there is at least one answer and every answer is public. */
export function assertPublicAnswers(host: string, answers: readonly dns.LookupAddress[]): void {
  if (answers.length === 0) throw new UnsafeDestinationError('no_addresses', host);
  for (const a of answers) {
    if (typeof a.address !== 'string' || net.isIP(a.address) === 0) {
      throw new UnsafeDestinationError('invalid_address', host, String(a.address));
    }
    // One private answer taints the name: the resolver may hand it out next time.
    if (!isPublicAddress(a.address)) throw new UnsafeDestinationError('non_public_address', host, a.address);
  }
}

export async function resolvePublicAddresses(
  host: string,
  lookup: typeof dns.lookup = dns.lookup,
): Promise<string[]> {
  const bare = stripBrackets(host);
  if (net.isIP(bare) !== 0) {
    assertPublicAnswers(bare, [{ address: bare, family: net.isIP(bare) }]);
    return [bare];
  }
  const answers = await new Promise<dns.LookupAddress[]>((resolve, reject) => {
    try {
      lookup(bare, { all: true, verbatim: true }, (err, addresses) => {
        if (err) reject(err);
        else resolve(normalizeLookupAnswer(addresses as unknown as string | dns.LookupAddress[]));
      });
    } catch (err) {
      reject(err);
    }
  });
  assertPublicAnswers(bare, answers);
  return answers.map((a) => a.address);
}
