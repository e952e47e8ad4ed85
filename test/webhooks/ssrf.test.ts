// Where a webhook must never deliver (contract §2.7): refused at creation with 400, and a
// name that turns internal after creation (DNS rebinding) gets no delivery to loopback.
import net, { type LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, waitFor, type TestServer } from './helpers.js';

/** Names the scripted resolver knows; anything else is NXDOMAIN. */
const ZONE: Record<string, string[][]> = {
  'hooks.example.com': [['93.184.216.34']],
  'v6.example.com': [['2606:2800:220:1:248:1893:25c8:1946']],
  'localtest.example.com': [['127.0.0.1']],
  'internal.example.com': [['10.0.0.5']],
  'metadata.example.com': [['169.254.169.254']],
  'mixed.example.com': [['93.184.216.34', '127.0.0.1']],
  'v6-loopback.example.com': [['::1']],
  'mapped.example.com': [['::ffff:127.0.0.1']],
  // Public when the webhook is created, loopback ever after.
  'rebind.example.com': [['93.184.216.34'], ['127.0.0.1']],
};
const calls: Record<string, number> = {};

const lookup: LookupFunction = (host, options, cb) => {
  const script = ZONE[host];
  const n = (calls[host] = (calls[host] ?? 0) + 1);
  queueMicrotask(() => {
    if (!script) {
      cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), options.all ? [] : '', 4);
      return;
    }
    const list = script[Math.min(n - 1, script.length - 1)].map((address) => ({ address, family: net.isIP(address) }));
    if (options.all) cb(null, list);
    else cb(null, list[0].address, list[0].family);
  });
};

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ allowInsecureWebhooks: false, webhookLookup: lookup, webhookRetryScheduleSeconds: [3600] });
});
afterAll(async () => s.close());

const UNSAFE = [
  // scheme, port, user info
  'http://hooks.example.com/',
  'ftp://hooks.example.com/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'https://hooks.example.com:8443/',
  'https://hooks.example.com:80/',
  'https://user:pass@hooks.example.com/',
  'https://user@hooks.example.com/',
  'https://hooks.example.com:443@127.0.0.1/',
  // loopback in every spelling
  'https://127.0.0.1/',
  'https://127.0.0.1./',
  'https://127.1/',
  'https://127.0.1/',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0x7f.0.0.1/',
  'https://0177.0.0.1/',
  'https://%31%32%37.0.0.1/',
  'https://１２７.０.０.１/',
  'https://127.255.255.254/',
  'https://[::1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[0:0:0:0:0:ffff:7f00:0001]/',
  'https://[::127.0.0.1]/',
  'https://[64:ff9b::7f00:1]/',
  'https://[2002:7f00:1::]/',
  'https://localhost/',
  'https://LOCALHOST./',
  'https://api.localhost/',
  // unspecified, private, link-local, CGNAT, multicast, reserved
  'https://0.0.0.0/',
  'https://0/',
  'https://[::]/',
  'https://10.0.0.1/',
  'https://10.255.255.255/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.1.1/',
  'https://169.254.169.254/',
  'https://[fe80::1]/',
  'https://[fc00::1]/',
  'https://[fd12:3456::1]/',
  'https://[::ffff:10.0.0.1]/',
  'https://[::ffff:169.254.169.254]/',
  'https://100.64.0.1/',
  'https://100.127.255.255/',
  'https://224.0.0.1/',
  'https://239.255.255.250/',
  'https://[ff02::1]/',
  'https://255.255.255.255/',
  'https://240.0.0.1/',
  'https://192.0.2.1/',
  'https://198.18.0.1/',
  'https://[2001:db8::1]/',
  // internal names
  'https://metadata.google.internal/',
  'https://intranet/',
  'https://router.lan/',
  'https://printer.local/',
  'https://db.corp/',
  'https://box.home.arpa/',
  // public-looking names that resolve inside
  'https://localtest.example.com/',
  'https://internal.example.com/',
  'https://metadata.example.com/latest/meta-data/',
  'https://mixed.example.com/',
  'https://v6-loopback.example.com/',
  'https://mapped.example.com/',
];

describe('URL rules at creation', () => {
  it.each(UNSAFE)('refuses %s with 400', async (url) => {
    const r = await call(s.url, s.apiKey, 'POST', '/webhooks', { url, events: ['company.updated'] });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_body', param: 'url' });
  });

  it('refuses the same URLs when changed with PATCH', async () => {
    const w = (await call(s.url, s.apiKey, 'POST', '/webhooks', { url: 'https://hooks.example.com/a', events: ['company.updated'] })).body.data;
    for (const url of ['https://127.0.0.1/', 'http://hooks.example.com/', 'https://internal.example.com/']) {
      expect((await call(s.url, s.apiKey, 'PATCH', `/webhooks/${w.id}`, { url })).status).toBe(400);
    }
    expect((await call(s.url, s.apiKey, 'GET', `/webhooks/${w.id}`)).body.data.url).toBe('https://hooks.example.com/a');
  });

  // Found by an exploratory run (2026-11-28): these parse to a public host here and were stored
  // as typed, for another parser (a proxy, a log reader) to read otherwise.
  it.each([' https://93.184.216.34/', 'https://93.184.216.34/ ', 'https:93.184.216.34', 'https:/93.184.216.34/', 'https://93.184.216.34\\@127.0.0.1/', 'https:\\\\93.184.216.34/', 'https://93.184.216.34/a b'])(
    'refuses %j, not written plainly, with 400',
    async (url) => {
      const r = await call(s.url, s.apiKey, 'POST', '/webhooks', { url, events: ['company.updated'] });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_body', param: 'url' });
      expect(r.body.error.message).toContain('written plainly');
    },
  );

  it.each([
    'https://hooks.example.com/bolag?token=abc',
    'https://hooks.example.com:443/bolag',
    'https://v6.example.com/',
    'https://93.184.216.34/hook',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/hook',
    'https://not-yet-in-dns.example.org/hook',
  ])('accepts %s', async (url) => {
    const r = await call(s.url, s.apiKey, 'POST', '/webhooks', { url, events: ['company.updated'] });
    expect(r.status).toBe(201);
  });
});

describe('URL rules at delivery', () => {
  it('a name that resolved public at creation and loopback later gets no delivery to loopback', async () => {
    // Something listening on 127.0.0.1:443 that would see a connection if the guard failed.
    let connections = 0;
    const trap = net.createServer((sock) => {
      connections++;
      sock.destroy();
    });
    const trapping = await new Promise<boolean>((resolve) => {
      trap.once('error', () => resolve(false));
      trap.listen(443, '127.0.0.1', () => resolve(true));
    });
    try {
      const created = await call(s.url, s.apiKey, 'POST', '/webhooks', { url: 'https://rebind.example.com/hook', events: ['company.updated'] });
      expect(created.status).toBe(201);
      expect(calls['rebind.example.com']).toBe(1);
      const id = created.body.data.id;
      expect((await call(s.url, s.apiKey, 'POST', `/webhooks/${id}/test`)).status).toBe(202);
      const d = await waitFor(async () => (await call(s.url, s.apiKey, 'GET', `/webhooks/${id}/deliveries`)).body.data[0], { what: 'attempt' });
      expect(d.status_code).toBeNull();
      expect(d.error).toContain('refused destination');
      // The address the name resolved to stays ours: an account must not map our network with it.
      expect(d.error).toBe('refused destination: non_public_address');
      expect(calls['rebind.example.com']).toBeGreaterThanOrEqual(2);
      if (trapping) expect(connections).toBe(0);
    } finally {
      await new Promise((r) => trap.close(r));
    }
  });
});
