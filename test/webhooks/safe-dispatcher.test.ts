import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import http from 'node:http';
import type dns from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';
import { request } from 'undici';
import { UnsafeDestinationError, resolvePublicAddresses } from '../../src/webhooks/address-guard.js';
import { createGuardedLookup, createSafeDispatcher } from '../../src/webhooks/safe-dispatcher.js';

let server: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    hits++;
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  hits = 0;
});

/** Answers each call with the next entry of `answers` (the last one repeats). */
function scriptedLookup(answers: string[][]): { lookup: LookupFunction; calls: () => number } {
  let n = 0;
  const lookup: LookupFunction = (_host, options, cb) => {
    const addrs = answers[Math.min(n++, answers.length - 1)];
    const list = addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    queueMicrotask(() => (options.all ? cb(null, list) : cb(null, list[0].address, list[0].family)));
  };
  return { lookup, calls: () => n };
}

/** Unwraps the error undici surfaced to find our typed error. */
function unsafeCause(err: unknown): UnsafeDestinationError | undefined {
  for (let e = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof UnsafeDestinationError) return e;
  }
  return undefined;
}

describe('createSafeDispatcher', () => {
  it('refuses a name that resolves to loopback and never connects', async () => {
    const { lookup, calls } = scriptedLookup([['127.0.0.1']]);
    const dispatcher = createSafeDispatcher({ allowInsecure: false, lookup });
    try {
      const err = await request(`http://rebind.test:${port}/`, { dispatcher }).catch((e: unknown) => e);
      const cause = unsafeCause(err);
      expect(cause).toBeInstanceOf(UnsafeDestinationError);
      expect(cause?.reason).toBe('non_public_address');
      expect(cause?.address).toBe('127.0.0.1');
      expect(calls()).toBeGreaterThan(0);
      expect(hits).toBe(0);
    } finally {
      await dispatcher.close();
    }
  });

  it('refuses when any answer is non-public', async () => {
    const { lookup } = scriptedLookup([['93.184.216.34', '127.0.0.1']]);
    const dispatcher = createSafeDispatcher({ allowInsecure: false, lookup });
    try {
      const err = await request(`http://rebind.test:${port}/`, { dispatcher }).catch((e: unknown) => e);
      expect(unsafeCause(err)).toBeInstanceOf(UnsafeDestinationError);
      expect(hits).toBe(0);
    } finally {
      await dispatcher.close();
    }
  });

  it('is not fooled by DNS rebinding between the check and the connect', async () => {
    // First answer passes the up-front check, later answers point at loopback.
    const { lookup, calls } = scriptedLookup([['93.184.216.34'], ['127.0.0.1']]);
    await expect(resolvePublicAddresses('rebind.test', lookup as unknown as typeof dns.lookup)).resolves.toEqual([
      '93.184.216.34',
    ]);
    const dispatcher = createSafeDispatcher({ allowInsecure: false, lookup });
    try {
      for (let i = 0; i < 3; i++) {
        const err = await request(`http://rebind.test:${port}/`, { dispatcher }).catch((e: unknown) => e);
        expect(unsafeCause(err)?.address).toBe('127.0.0.1');
      }
      expect(calls()).toBeGreaterThanOrEqual(4);
      expect(hits).toBe(0);
    } finally {
      await dispatcher.close();
    }
  });

  it.each(['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '169.254.169.254', '0.0.0.0'])(
    'refuses the IP literal %s without resolving it',
    async (host) => {
      const { lookup, calls } = scriptedLookup([['93.184.216.34']]);
      const dispatcher = createSafeDispatcher({ allowInsecure: false, lookup });
      try {
        const err = await request(`http://${host}:${port}/`, { dispatcher }).catch((e: unknown) => e);
        expect(unsafeCause(err)).toBeInstanceOf(UnsafeDestinationError);
        expect(calls()).toBe(0);
        expect(hits).toBe(0);
      } finally {
        await dispatcher.close();
      }
    },
  );

  it('reaches the local server when allowInsecure is true', async () => {
    const { lookup } = scriptedLookup([['127.0.0.1']]);
    const dispatcher = createSafeDispatcher({ allowInsecure: true, lookup });
    try {
      const byName = await request(`http://rebind.test:${port}/`, { dispatcher });
      expect(byName.statusCode).toBe(200);
      expect(await byName.body.text()).toBe('reached');
      const byIp = await request(`http://127.0.0.1:${port}/`, { dispatcher });
      expect(await byIp.body.text()).toBe('reached');
      expect(hits).toBe(2);
    } finally {
      await dispatcher.close();
    }
  });

  it('does not follow redirects', async () => {
    const redirector = http.createServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const dispatcher = createSafeDispatcher({ allowInsecure: true });
    try {
      const res = await request(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}/`, { dispatcher });
      expect(res.statusCode).toBe(302);
      await res.body.dump();
      expect(hits).toBe(0);
    } finally {
      await dispatcher.close();
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });
});

describe('createGuardedLookup', () => {
  const call = (fn: LookupFunction, options: dns.LookupOptions) =>
    new Promise<{ err: unknown; address: unknown; family: unknown }>((resolve) =>
      fn('host.test', options, (err, address, family) => resolve({ err, address, family })),
    );

  it('answers in the shape the caller asked for', async () => {
    const { lookup } = scriptedLookup([['93.184.216.34', '2606:4700::1111']]);
    const guarded = createGuardedLookup(lookup, false);
    expect(await call(guarded, { all: true })).toMatchObject({
      err: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
    });
    expect(await call(guarded, {})).toMatchObject({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('checks every answer even when the caller wants only one', async () => {
    const { lookup } = scriptedLookup([['93.184.216.34', '10.0.0.1']]);
    const r = await call(createGuardedLookup(lookup, false), { all: false });
    expect(r.err).toBeInstanceOf(UnsafeDestinationError);
  });

  it('handles a resolver that ignores all: true', async () => {
    const single: LookupFunction = (_h, _o, cb) => cb(null, '127.0.0.1', 4);
    expect((await call(createGuardedLookup(single, false), { all: true })).err).toBeInstanceOf(UnsafeDestinationError);
    const pub: LookupFunction = (_h, _o, cb) => cb(null, '8.8.8.8', 4);
    expect(await call(createGuardedLookup(pub, false), { all: true })).toMatchObject({
      err: null,
      address: [{ address: '8.8.8.8', family: 4 }],
    });
  });
});
