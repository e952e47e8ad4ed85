// Signed links: no API key, 24 h expiry (410), tampering (403), byte ranges (206/416).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_STORE } from '../helpers/test-store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Signer } from '../../src/app/signer.js';
import { signedLink } from '../../src/exports/links.js';
import { api, download, http, startTestServer, waitForExport, type TestServer } from './helpers.js';

let t: TestServer;
let single: any;
let multi: any;

beforeAll(async () => {
  t = await startTestServer({ exportPartRows: 500 });
  const a = await api(t, t.key, 'POST', '/exports', { format: 'csv', filters: { county: '14' } });
  const b = await api(t, t.key, 'POST', '/exports', { format: 'jsonl', filters: { status: 'all' } });
  single = await waitForExport(t, t.key, a.body.data.id);
  multi = await waitForExport(t, t.key, b.body.data.id);
}, 60_000);
afterAll(async () => t?.cleanup());

async function errorOf(url: string) {
  const res = await http(url);
  return { status: res.status, body: (await res.json()) as any };
}

describe('signed links', () => {
  it('work without an API key and are stable across reads', async () => {
    expect(single.files).toHaveLength(1);
    const again = (await api(t, t.key, 'GET', `/exports/${single.id}`)).body.data;
    expect(again.download_url).toBe(single.download_url);
    const r = await download(single.files[0].url);
    expect(r.status).toBe(200);
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('etag')).toBe(`"${single.files[0].sha256}"`);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('are refused with 403 when any part of them is changed', async () => {
    const url = new URL(multi.files[0].url);
    const variants: string[] = [];
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    variants.push(later.toString());
    const badSig = new URL(url);
    const sig = url.searchParams.get('signature')!;
    badSig.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    variants.push(badSig.toString());
    variants.push(url.toString().replace('/files/1?', '/files/2?')); // another part
    variants.push(url.toString().replace(multi.id, single.id)); // another export
    variants.push(multi.download_url.replace('/download?', '/files/1?')); // the ZIP's signature on a part
    const bare = new URL(url);
    bare.search = '';
    variants.push(bare.toString());
    // expires or signature given twice (found by the HTTP fuzz test: it was a 500)
    variants.push(`${url}&expires=${url.searchParams.get('expires')}`);
    variants.push(`${multi.download_url}&signature=x`);
    // Changes the signature does not cover (found by a security review: both were served).
    const padded = new URL(url);
    padded.searchParams.set('expires', `0${url.searchParams.get('expires')}`);
    variants.push(padded.toString());
    variants.push(`${url}&foo=1`);
    // A part number as no link writes it (found by a review, 2026-11-29: 404).
    for (const n of ['01', '0', '1.0', 'x']) variants.push(url.toString().replace('/files/1?', `/files/${n}?`));
    for (const v of variants) {
      const r = await errorOf(v);
      expect(r.status, v).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
      expect(r.body.meta.request_id).toBeTruthy();
    }
  });

  it('expire 24 hours after completion with 410', async () => {
    // A link signed with the server's key whose expiry has passed.
    const key = await t.store().getOrCreateSetting('signing_key', () => 'unused');
    const past = Math.floor(Date.now() / 1000) - 1;
    const r = await errorOf(signedLink(new Signer(key), t.url, single.id, 1, past));
    expect(r.status).toBe(410);
    expect(r.body.error.code).toBe('link_expired');

    // And the links the API hands out for an export completed 25 hours ago.
    const completed = new Date(Date.now() - 25 * 3600 * 1000);
    const expires = new Date(completed.getTime() + 24 * 3600 * 1000);
    await t.store().exports.update(multi.id, { completed_at: completed.toISOString(), expires_at: expires.toISOString() });
    const old = (await api(t, t.key, 'GET', `/exports/${multi.id}`)).body.data;
    expect(old.expires_at).toBe(expires.toISOString());
    for (const url of [old.download_url, old.files[0].url]) {
      const e = await errorOf(url);
      expect(e.status).toBe(410);
      expect(e.body.error.code).toBe('link_expired');
    }
  });
});

describe('byte ranges', () => {
  it('serve 206 with Content-Range for bytes=a-b, a- and -n', async () => {
    const f = single.files[0];
    const whole = (await download(f.url)).bytes;
    for (const [range, start, end] of [
      ['bytes=0-9', 0, 9],
      ['bytes=100-', 100, f.bytes - 1],
      ['bytes=-25', f.bytes - 25, f.bytes - 1],
      [`bytes=10-${f.bytes + 1000}`, 10, f.bytes - 1],
    ] as const) {
      const r = await download(f.url, { range });
      expect(r.status, range).toBe(206);
      expect(r.headers.get('content-range')).toBe(`bytes ${start}-${end}/${f.bytes}`);
      expect(Number(r.headers.get('content-length'))).toBe(end - start + 1);
      expect(r.bytes.equals(whole.subarray(start, end + 1))).toBe(true);
    }
  });

  it('answer 416 when the range starts past the end', async () => {
    const f = single.files[0];
    const res = await http(f.url, { headers: { range: `bytes=${f.bytes}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${f.bytes}`);
    expect(((await res.json()) as any).error.code).toBe('range_not_satisfiable');
  });

  it('serve the whole file for several ranges or a stale If-Range', async () => {
    const f = single.files[0];
    expect((await download(f.url, { range: 'bytes=0-1,5-6' })).status).toBe(200);
    expect((await download(f.url, { range: 'bytes=0-1', 'if-range': '"stale"' })).status).toBe(200);
    expect((await download(f.url, { range: 'bytes=0-1', 'if-range': `"${f.sha256}"` })).status).toBe(206);
  });

  it('answer HEAD with the headers of a GET and no body, without reading the files (found by a review, 2026-11-29)', async () => {
    const part = await http(multi.files[0].url, { method: 'HEAD' });
    expect(part.status).toBe(200);
    expect(part.headers.get('content-length')).toBe(String(multi.files[0].bytes));
    expect(part.headers.get('etag')).toBe(`"${multi.files[0].sha256}"`);
    expect((await part.arrayBuffer()).byteLength).toBe(0);
    const ranged = await http(multi.files[0].url, { method: 'HEAD', headers: { range: 'bytes=10-19' } });
    expect([ranged.status, ranged.headers.get('content-length'), ranged.headers.get('content-range')]).toEqual([206, '10', `bytes 10-19/${multi.files[0].bytes}`]);
    const zip = await http(multi.download_url, { method: 'HEAD' });
    expect([zip.status, zip.headers.get('content-type')]).toEqual([200, 'application/zip']);
    expect(zip.headers.get('content-disposition')).toMatch(/\.zip"$/);
    expect((await zip.arrayBuffer()).byteLength).toBe(0);
  });

  it.runIf(TEST_STORE === 'sqlite')('end only the download whose part cannot be read, not the server (found by a review, 2026-11-29: the process ended)', async () => {
    const b = await api(t, t.key, 'POST', '/exports', { format: 'csv', filters: { status: 'all' } });
    const e = await waitForExport(t, t.key, b.body.data.id);
    expect(e.files.length).toBeGreaterThan(2);
    // The second part's file turned into something that cannot be read (as a sweep deleting it
    // mid-download leaves it): its size is still read, its bytes are not.
    const second = join(t.exportDir, e.id, readdirSync(join(t.exportDir, e.id)).sort()[1]);
    rmSync(second);
    mkdirSync(second);
    const cut = await download(e.download_url).then(
      (r) => r.bytes.length,
      () => -1,
    );
    expect(cut).toBeLessThan(e.files.reduce((n: number, f: { bytes: number }) => n + f.bytes, 0));
    // The server still answers.
    expect((await api(t, t.key, 'GET', `/exports/${e.id}`)).status).toBe(200);
  });

  it('resume a part: the pieces put together are the file', async () => {
    const f = multi.files[0];
    const head = await download(f.url, { range: 'bytes=0-999' });
    const tail = await download(f.url, { range: 'bytes=1000-' });
    const whole = Buffer.concat([head.bytes, tail.bytes]);
    expect(whole.length).toBe(f.bytes);
    expect(createHash('sha256').update(whole).digest('hex')).toBe(f.sha256);
  });
});

describe('expired exports', () => {
  it('lose their files at the next sweep (the worker sweeps when it starts); the record stays', async () => {
    // multi's expiry was moved 25 hours back above.
    const has = async (id: string) => (await t.storedFiles(id)).finished.length > 0;
    expect(await has(multi.id)).toBe(true);
    await t.stop();
    await t.start();
    for (let i = 0; i < 100 && (await has(multi.id)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await has(multi.id)).toBe(false);
    const after = (await api(t, t.key, 'GET', `/exports/${multi.id}`)).body.data;
    expect(after).toMatchObject({ status: 'completed', row_count: multi.row_count, files: [] });
    expect((await errorOf(after.download_url)).status).toBe(410);
    // The unexpired one keeps its files.
    expect((await api(t, t.key, 'GET', `/exports/${single.id}`)).body.data.files).toHaveLength(1);
    expect(await has(single.id)).toBe(true);
  });
});
