import { describe, it, expect } from 'vitest';
import Stripe from 'stripe';
import {
  generateSecret,
  parseSignatureHeader,
  signPayload,
  verifySignature,
} from '../../src/webhooks/signature.js';

const body = JSON.stringify({ id: 'evt_1', type: 'company.updated', data: { orgnr: '556000-0000' } });
const secret = 'whsec_test_secret_one';
const oldSecret = 'whsec_test_secret_old';
const now = 1_700_000_000;

describe('signPayload / verifySignature', () => {
  it('round trips', () => {
    const header = signPayload(body, [secret], now);
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature({ rawBody: body, header, secrets: [secret], nowSeconds: now })).toEqual({ ok: true, t: now });
  });

  it('treats Buffer and string bodies identically', () => {
    const header = signPayload(Buffer.from(body), [secret], now);
    expect(header).toBe(signPayload(body, [secret], now));
    expect(verifySignature({ rawBody: Buffer.from(body), header, secrets: [secret], nowSeconds: now }).ok).toBe(true);
  });

  it('rejects a tampered body', () => {
    const header = signPayload(body, [secret], now);
    const r = verifySignature({ rawBody: body.replace('evt_1', 'evt_2'), header, secrets: [secret], nowSeconds: now });
    expect(r).toEqual({ ok: false, reason: 'no_matching_signature' });
  });

  it('rejects a wrong secret', () => {
    const header = signPayload(body, [secret], now);
    expect(verifySignature({ rawBody: body, header, secrets: ['whsec_other'], nowSeconds: now })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('rejects a timestamp changed after signing', () => {
    const header = signPayload(body, [secret], now).replace(`t=${now}`, `t=${now + 1}`);
    expect(verifySignature({ rawBody: body, header, secrets: [secret], nowSeconds: now })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('enforces the tolerance window in both directions', () => {
    const past = signPayload(body, [secret], now - 301);
    const future = signPayload(body, [secret], now + 301);
    const edge = signPayload(body, [secret], now - 300);
    expect(verifySignature({ rawBody: body, header: past, secrets: [secret], nowSeconds: now })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verifySignature({ rawBody: body, header: future, secrets: [secret], nowSeconds: now })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verifySignature({ rawBody: body, header: edge, secrets: [secret], nowSeconds: now }).ok).toBe(true);
    expect(
      verifySignature({ rawBody: body, header: past, secrets: [secret], nowSeconds: now, toleranceSeconds: 600 }).ok,
    ).toBe(true);
  });

  it('uses the clock when nowSeconds is omitted', () => {
    const header = signPayload(body, [secret], Math.floor(Date.now() / 1000));
    expect(verifySignature({ rawBody: body, header, secrets: [secret] }).ok).toBe(true);
  });

  it.each([
    ['missing t', 'v1=' + 'a'.repeat(64)],
    ['non-numeric t', 't=abc,v1=' + 'a'.repeat(64)],
    ['negative t', 't=-5,v1=' + 'a'.repeat(64)],
    ['duplicate t', `t=${now},t=${now},v1=` + 'a'.repeat(64)],
    ['no v1', `t=${now}`],
    ['only another scheme', `t=${now},v0=` + 'a'.repeat(64)],
    ['non-hex v1', `t=${now},v1=zz`],
    ['empty v1', `t=${now},v1=`],
    ['garbage', 'garbage'],
    ['empty', ''],
    ['lone commas', ',,,'],
  ])('rejects a malformed header (%s)', (_name, header) => {
    expect(verifySignature({ rawBody: body, header, secrets: [secret], nowSeconds: now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('does not throw on wrong-length hex signatures', () => {
    for (const v1 of ['ab', 'a'.repeat(63), 'a'.repeat(62), 'a'.repeat(66), 'a'.repeat(128)]) {
      expect(verifySignature({ rawBody: body, header: `t=${now},v1=${v1}`, secrets: [secret], nowSeconds: now })).toEqual({
        ok: false,
        reason: 'no_matching_signature',
      });
    }
  });

  it('accepts during rotation when either v1 matches', () => {
    const header = signPayload(body, [secret, oldSecret], now);
    const [, newSig, oldSig] = header.split(',');
    expect(header.split(',')).toHaveLength(3);
    // Receiver already on the new secret, receiver still on the old one.
    expect(verifySignature({ rawBody: body, header, secrets: [secret], nowSeconds: now }).ok).toBe(true);
    expect(verifySignature({ rawBody: body, header, secrets: [oldSecret], nowSeconds: now }).ok).toBe(true);
    // Order of entries does not matter.
    expect(verifySignature({ rawBody: body, header: `t=${now},${oldSig},${newSig}`, secrets: [secret], nowSeconds: now }).ok).toBe(true);
    expect(verifySignature({ rawBody: body, header, secrets: ['whsec_neither'], nowSeconds: now }).ok).toBe(false);
    // A receiver holding both secrets accepts a header signed with only one.
    const single = signPayload(body, [oldSecret], now);
    expect(verifySignature({ rawBody: body, header: single, secrets: [secret, oldSecret], nowSeconds: now }).ok).toBe(true);
  });

  it('refuses to sign without a secret or with a bad timestamp', () => {
    expect(() => signPayload(body, [], now)).toThrow(TypeError);
    expect(() => signPayload(body, [secret], 1.5)).toThrow(TypeError);
    expect(() => signPayload(body, [secret], Number.NaN)).toThrow(TypeError);
  });
});

describe('parseSignatureHeader', () => {
  it('parses t and all v1 entries, tolerating spaces and unknown schemes', () => {
    const a = 'a'.repeat(64);
    const b = 'B'.repeat(64);
    expect(parseSignatureHeader(`t=${now}, v1=${a}, v0=ignored, v1=${b}`)).toEqual({
      t: now,
      v1: [a, 'b'.repeat(64)],
    });
  });
});

describe('generateSecret', () => {
  it('returns whsec_ plus 32 random bytes', () => {
    const s = generateSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(s.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    expect(generateSecret()).not.toBe(s);
  });
});

describe('interoperability with stripe', () => {
  const stripe = new Stripe('sk_test_x');

  it('stripe accepts a header we produce', () => {
    const s = generateSecret();
    const header = signPayload(body, [s], Math.floor(Date.now() / 1000));
    const event = stripe.webhooks.constructEvent(body, header, s);
    expect(event.id).toBe('evt_1');
  });

  it('stripe accepts a rotation header when it holds either secret', () => {
    const header = signPayload(body, [secret, oldSecret], Math.floor(Date.now() / 1000));
    expect(stripe.webhooks.constructEvent(body, header, secret).id).toBe('evt_1');
    expect(stripe.webhooks.constructEvent(body, header, oldSecret).id).toBe('evt_1');
  });

  it('stripe rejects our header for a tampered body', () => {
    const header = signPayload(body, [secret], Math.floor(Date.now() / 1000));
    expect(() => stripe.webhooks.constructEvent(body + ' ', header, secret)).toThrow();
  });

  it('we accept a header stripe produces', () => {
    const s = generateSecret();
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: s });
    expect(verifySignature({ rawBody: body, header, secrets: [s] }).ok).toBe(true);
    expect(verifySignature({ rawBody: body, header, secrets: [secret] })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });
});
