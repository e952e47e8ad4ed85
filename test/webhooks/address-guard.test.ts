import { describe, it, expect } from 'vitest';
import type dns from 'node:dns';
import {
  UnsafeDestinationError,
  checkWebhookUrl,
  isPublicAddress,
  resolvePublicAddresses,
} from '../../src/webhooks/address-guard.js';

/** A dns.lookup stand-in answering from a fixed table, honouring `all`. */
function fakeLookup(table: Record<string, string[]>): typeof dns.lookup {
  const fn = (host: string, options: dns.LookupOptions, cb: (...args: unknown[]) => void): void => {
    const addrs = table[host];
    if (!addrs) {
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      queueMicrotask(() => cb(err));
      return;
    }
    const list = addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    queueMicrotask(() => (options.all ? cb(null, list) : cb(null, list[0].address, list[0].family)));
  };
  return fn as unknown as typeof dns.lookup;
}

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1',
    '169.254.169.254', '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1',
    '239.255.255.250', '255.255.255.255', '240.0.0.1', '198.18.0.1', '198.19.255.255',
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '192.0.0.8', '192.88.99.1',
    '::1', '::', '[::1]', 'fc00::1', 'fd00::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fec0::1',
    'ff02::1', 'ff05::1:3', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '::ffff:10.1.2.3',
    '::127.0.0.1', '::7f00:1', '::8.8.8.8', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe', '64:ff9b:1::8.8.8.8', '2002:7f00:1::', '2002:c0a8:101::1', '2002:a9fe:a9fe::1',
    '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:2::1', '2001:10::1', '2001:db8::1',
    '3fff::1', '100::1', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:ffff:7f00:0001',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '93.184.216.34', '8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255',
    '100.128.0.1', '169.253.1.1', '198.17.255.255', '198.20.0.1', '223.255.255.254', '11.0.0.1',
    '2606:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::200e', '::ffff:8.8.8.8',
    '::ffff:808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '2001:200::1',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each(['localhost', '0177.0.0.1', '127.1', '2130706433', '0x7f000001', '', '1.2.3', '1.2.3.4.5', ':::', 'gggg::1'])(
    'fails closed on non-canonical input %j',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(false);
    },
  );
});

describe('checkWebhookUrl', () => {
  it.each([
    ['http scheme', 'http://example.com/hook'],
    ['ftp scheme', 'ftp://example.com/hook'],
    ['javascript', 'javascript:alert(1)'],
    ['unparseable', 'not a url'],
    ['port 8443', 'https://example.com:8443/hook'],
    ['port 80 on https', 'https://example.com:80/hook'],
    ['user info', 'https://user:pw@example.com/'],
    ['user only', 'https://user@example.com/'],
    ['ipv6 loopback', 'https://[::1]/'],
    ['ipv6 unspecified', 'https://[::]/'],
    ['mapped dotted', 'https://[::ffff:127.0.0.1]/'],
    ['mapped hex', 'https://[::ffff:7f00:1]/'],
    ['mapped metadata', 'https://[::ffff:169.254.169.254]/'],
    ['ipv4-compatible', 'https://[::127.0.0.1]/'],
    ['nat64 loopback', 'https://[64:ff9b::127.0.0.1]/'],
    ['6to4 private', 'https://[2002:c0a8:0101::1]/'],
    ['teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
    ['metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['hex', 'https://0x7f000001/'],
    ['decimal', 'https://2130706433/'],
    ['decimal over http', 'http://2130706433'],
    ['octal', 'https://0177.0.0.1/'],
    ['short form', 'https://127.1/'],
    ['loopback', 'https://127.0.0.1/'],
    ['loopback explicit 443', 'https://127.0.0.1:443/'],
    ['trailing dot ip', 'https://127.0.0.1./'],
    ['private 10', 'https://10.0.0.5/'],
    ['private 172', 'https://172.16.3.4/'],
    ['private 192', 'https://192.168.0.1/'],
    ['cgnat', 'https://100.64.0.1/'],
    ['unique local', 'https://[fd00::1]/'],
    ['link local v6', 'https://[fe80::1]/'],
    ['multicast', 'https://224.0.0.1/'],
    ['multicast v6', 'https://[ff02::1]/'],
    ['broadcast', 'https://255.255.255.255/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['zero short', 'https://0/'],
    ['reserved', 'https://240.0.0.1/'],
    ['benchmark', 'https://198.18.0.1/'],
    ['documentation', 'https://192.0.2.10/'],
    ['documentation v6', 'https://[2001:db8::1]/'],
    ['localhost', 'https://localhost/'],
    ['localhost trailing dot', 'https://localhost./'],
    ['localhost uppercase', 'https://LOCALHOST/'],
    ['sub.localhost', 'https://foo.localhost/'],
    ['sub.localhost trailing dot', 'https://foo.localhost./'],
    ['mdns', 'https://printer.local/'],
    ['internal', 'https://metadata.google.internal/'],
    ['single label', 'https://intranet/'],
  ])('rejects %s: %s', (_name, url) => {
    const r = checkWebhookUrl(url, { allowInsecure: false });
    expect(r.ok).toBe(false);
  });

  it('reports specific reasons', () => {
    const reason = (url: string): string | undefined => {
      const r = checkWebhookUrl(url, { allowInsecure: false });
      return r.ok ? undefined : r.reason;
    };
    expect(reason('http://example.com/')).toBe('https_required');
    expect(reason('https://example.com:8443/')).toBe('port_not_allowed');
    expect(reason('https://user:pw@example.com/')).toBe('userinfo_not_allowed');
    expect(reason('https://0x7f000001/')).toBe('internal_address');
    expect(reason('https://localhost./')).toBe('internal_hostname');
    expect(reason('::')).toBe('invalid_url');
  });

  it.each([
    'https://example.com/hook',
    'https://example.com:443/hook',
    'https://example.com./hook',
    'https://hooks.example.co.uk/a/b?c=d',
    'https://93.184.216.34/',
    'https://[2606:4700::1111]/',
  ])('accepts %s', (url) => {
    const r = checkWebhookUrl(url, { allowInsecure: false });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.url).toBeInstanceOf(URL);
  });

  it('allowInsecure permits any http(s) URL but nothing else', () => {
    for (const url of ['http://localhost:3000/hook', 'https://127.0.0.1:8443/', 'http://user:pw@10.0.0.1/']) {
      expect(checkWebhookUrl(url, { allowInsecure: true }).ok).toBe(true);
    }
    expect(checkWebhookUrl('ftp://localhost/', { allowInsecure: true }).ok).toBe(false);
    expect(checkWebhookUrl('nope', { allowInsecure: true }).ok).toBe(false);
  });
});

describe('resolvePublicAddresses', () => {
  const lookup = fakeLookup({
    'loop.test': ['127.0.0.1'],
    'mixed.test': ['93.184.216.34', '10.0.0.1'],
    'mixed6.test': ['2606:4700::1111', '::1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'public.test': ['93.184.216.34', '2606:4700::1111'],
    'empty.test': [],
  });

  it.each(['loop.test', 'mixed.test', 'mixed6.test', 'mapped.test'])('rejects %s', async (host) => {
    const err = await resolvePublicAddresses(host, lookup).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeDestinationError);
    expect((err as UnsafeDestinationError).reason).toBe('non_public_address');
  });

  it('rejects an empty answer', async () => {
    await expect(resolvePublicAddresses('empty.test', lookup)).rejects.toMatchObject({ reason: 'no_addresses' });
  });

  it('accepts names whose answers are all public', async () => {
    await expect(resolvePublicAddresses('public.test', lookup)).resolves.toEqual(['93.184.216.34', '2606:4700::1111']);
  });

  it('checks IP literals without resolving them', async () => {
    await expect(resolvePublicAddresses('[::1]', lookup)).rejects.toBeInstanceOf(UnsafeDestinationError);
    await expect(resolvePublicAddresses('169.254.169.254', lookup)).rejects.toBeInstanceOf(UnsafeDestinationError);
    await expect(resolvePublicAddresses('8.8.8.8', lookup)).resolves.toEqual(['8.8.8.8']);
  });

  it('passes resolver errors through', async () => {
    await expect(resolvePublicAddresses('missing.test', lookup)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
