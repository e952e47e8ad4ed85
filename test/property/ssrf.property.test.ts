// Property: every spelling of an internal address is refused as a webhook destination: IPv4 in
// decimal, octal, hex and short forms; IPv6 loopback, link-local, unique-local, multicast; IPv4
// mapped, compatible, NAT64 and 6to4 forms; names whose answers include one; names that answer
// public first and internal on the next lookup (rebinding).
import net, { type LookupFunction } from 'node:net';
import type dns from 'node:dns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPublicAddress } from '../../src/webhooks/address-guard.js';
import { createGuardedLookup } from '../../src/webhooks/safe-dispatcher.js';
import { assertWebhookUrl } from '../../src/webhooks/url-policy.js';

/** [network, prefix] blocks no webhook may reach (a subset is enough: each must be refused). */
const V4_INTERNAL: [number, number][] = [
  [0x00000000, 8], [0x0a000000, 8], [0x64400000, 10], [0x7f000000, 8], [0xa9fe0000, 16],
  [0xac100000, 12], [0xc0a80000, 16], [0xe0000000, 4], [0xf0000000, 4], [0xc6120000, 15],
];

const internalV4 = fc.tuple(fc.constantFrom(...V4_INTERNAL), fc.nat()).map(([[base, len], r]) => {
  const hostBits = 32 - len;
  return (base + (hostBits === 32 ? r : r % 2 ** hostBits)) >>> 0;
});
const publicV4 = fc.nat({ max: 0xffffffff }).filter((n) => isPublicAddress(dotted(n)));

const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
function dotted(n: number): string {
  return octets(n).join('.');
}
const hex = (n: number) => `0x${n.toString(16)}`;
const oct = (n: number) => `0${n.toString(8)}`;

/** Every IPv4 spelling that inet_aton (and so WHATWG URL) reads as the same address. */
const v4Spelling = (n: number) =>
  fc.constantFrom(
    dotted(n),
    `${dotted(n)}.`,
    String(n),
    hex(n),
    hex(n).toUpperCase().replace('0X', '0x'),
    oct(n),
    octets(n).map(oct).join('.'),
    octets(n).map(hex).join('.'),
    `${octets(n)[0]}.${(n & 0xffffff) >>> 0}`,
    `${octets(n)[0]}.${octets(n)[1]}.${n & 0xffff}`,
    `${hex(octets(n)[0])}.${hex(n & 0xffffff)}`,
    `${oct(octets(n)[0])}.${octets(n)[1]}.${hex(n & 0xffff)}`,
  );

const hi = (n: number) => (n >>> 16).toString(16);
const lo = (n: number) => (n & 0xffff).toString(16);

/** IPv6 spellings that carry an internal IPv4 address. */
const v6CarryingV4 = (n: number) =>
  fc.constantFrom(
    `::ffff:${dotted(n)}`,
    `::ffff:${hi(n)}:${lo(n)}`,
    `0:0:0:0:0:ffff:${hi(n)}:${lo(n)}`,
    `0000:0000:0000:0000:0000:FFFF:${dotted(n)}`,
    `64:ff9b::${dotted(n)}`,
    `64:ff9b::${hi(n)}:${lo(n)}`,
    `2002:${hi(n)}:${lo(n)}::1`,
    `::${dotted(n)}`,
  );

/** Native IPv6 internal addresses: loopback, unspecified, link-local, unique-local, multicast, site-local. */
const internalV6 = fc
  .tuple(
    fc.constantFrom([0x0000, 0xffff], [0xfe80, 0xffc0], [0xfc00, 0xfe00], [0xff00, 0xff00], [0xfec0, 0xffc0], [0x2001, 0xffff]),
    fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }),
    fc.boolean(),
  )
  .map(([[prefix, mask], rest, loopback]) => {
    if (prefix === 0) return loopback ? '::1' : '::';
    const first = (prefix | (rest[0] & ~mask & 0xffff)) & 0xffff;
    // 2001:0000::/32 is Teredo, 2001:db8::/32 documentation.
    const groups = prefix === 0x2001 ? [0x2001, rest[0] % 2 === 0 ? 0 : 0xdb8, ...rest.slice(2)] : [first, ...rest.slice(1)];
    return groups.map((g) => g.toString(16)).join(':');
  });

/** Writes an IPv6 address in another valid way: compressed zeros, leading zeros, upper case. */
const v6Respelled = (ip: string) =>
  fc.constantFrom(ip, ip.toUpperCase(), ip.replace(/(^|:)0(:0)+(:|$)/, '::').replace(/^:::/, '::').replace(/:::$/, '::'), ip.split(':').map((g) => (g && !g.includes('.') ? g.padStart(4, '0') : g)).join(':')).filter((s) => net.isIPv6(s));

const anyInternalLiteral = fc.oneof(
  internalV4.chain(v4Spelling).map((host) => ({ host, bracket: false })),
  internalV4.chain(v6CarryingV4).map((host) => ({ host, bracket: true })),
  internalV6.chain(v6Respelled).map((host) => ({ host, bracket: true })),
);

/** A resolver that answers from a script: call n gets answers[n] (the last one after that). */
function scripted(answers: string[][]): LookupFunction {
  let n = 0;
  return (_host, options, cb) => {
    const list = answers[Math.min(n++, answers.length - 1)].map((address) => ({ address, family: net.isIP(address) || 4 }));
    queueMicrotask(() => (options.all ? cb(null, list) : cb(null, list[0].address, list[0].family)));
  };
}

function guardedLookup(lookup: LookupFunction, host: string): Promise<dns.LookupAddress[]> {
  return new Promise((resolve, reject) =>
    createGuardedLookup(lookup, false)(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses as unknown as dns.LookupAddress[]))),
  );
}

describe('SSRF guard (property)', () => {
  it('refuses every literal spelling of an internal address in a webhook URL', () => {
    fc.assert(
      fc.property(anyInternalLiteral, ({ host, bracket }) => {
        const url = `https://${bracket ? `[${host}]` : host}/hook`;
        expect(checkWebhookUrl(url, { allowInsecure: false })).toMatchObject({ ok: false });
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts public IPv4 addresses written plainly (the guard is not refusing everything)', () => {
    fc.assert(
      fc.property(publicV4, (n) => {
        expect(checkWebhookUrl(`https://${dotted(n)}/hook`, { allowInsecure: false })).toMatchObject({ ok: true });
      }),
      { numRuns: 300 },
    );
  });

  const internalAnswer = fc.oneof(internalV4.map(dotted), internalV4.chain(v6CarryingV4), internalV6.chain(v6Respelled));
  const publicAnswer = publicV4.map(dotted);

  it('refuses a name when any of its answers is internal, at creation and at connect', async () => {
    await fc.assert(
      fc.asyncProperty(internalAnswer, fc.array(publicAnswer, { maxLength: 3 }), fc.nat(), async (bad, good, at) => {
        const answers = [...good];
        answers.splice(at % (good.length + 1), 0, bad);
        await expect(assertWebhookUrl('https://hooks.example.com/x', { allowInsecure: false, lookup: scripted([answers]) })).rejects.toMatchObject({ code: 'invalid_body' });
        await expect(guardedLookup(scripted([answers]), 'hooks.example.com')).rejects.toMatchObject({ code: 'ERR_UNSAFE_DESTINATION' });
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a name that answers public at creation and internal at delivery (rebinding)', async () => {
    await fc.assert(
      fc.asyncProperty(publicAnswer, internalAnswer, async (good, bad) => {
        const lookup = scripted([[good], [bad]]);
        // The creation check sees the public answer and accepts ...
        await assertWebhookUrl('https://rebind.example.com/x', { allowInsecure: false, lookup });
        // ... and the connection's own lookup, which sees the internal one, refuses.
        await expect(guardedLookup(lookup, 'rebind.example.com')).rejects.toMatchObject({ code: 'ERR_UNSAFE_DESTINATION' });
      }),
      { numRuns: 300 },
    );
  });
});
