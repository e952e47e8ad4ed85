// package.json promises Node >= 20.18.1. Node learnt to require() an ES module only in 20.19, and
// two of our dependencies' dependencies became ES modules in their latest majors
// (content-disposition 3 under @fastify/static, cookie 2 under light-my-request): `bolag serve`
// then stopped at its start on 20.18 with ERR_REQUIRE_ESM. package.json's overrides keep the
// CommonJS majors. This runs the real binary with require(esm) turned off, as 20.18 has it.
import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, binaryScratch, cleanEnv } from '../cli/helpers.js';

const FLAG = '--no-experimental-require-module';
const canTurnOff = process.allowedNodeEnvironmentFlags.has(FLAG);
if (!canTurnOff) console.warn(`oldest-node: this Node (${process.version}) has no ${FLAG}; skipped`);

const scratch = binaryScratch('bolag-oldest-node-');

describe.skipIf(!canTurnOff)('a Node without require(esm), as 20.18', () => {
  it('bolag serve starts, answers a search and its API reference, and stops', async () => {
    const child = execa('node', [FLAG, BIN, 'serve', '--processes', '1', '--port', '0', '--seed-count', '100', '--db', join(scratch(), 'r.db')], {
      reject: false,
      extendEnv: false,
      env: cleanEnv({ BOLAG_HOME: join(scratch(), 'home'), XDG_CONFIG_HOME: join(scratch(), 'config') }),
    });
    let stderr = '';
    let stdout = '';
    // A first start prints the new account's key on stdout and the address on stderr.
    const started = new Promise<{ base: string; key: string }>((resolve, reject) => {
      const check = () => {
        const base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
        const key = /^(bk_\S+)$/m.exec(stdout)?.[1];
        if (base && key) resolve({ base, key });
      };
      child.stdout!.on('data', (c: Buffer) => ((stdout += c.toString()), check()));
      child.stderr!.on('data', (c: Buffer) => ((stderr += c.toString()), check()));
      void child.then(() => reject(new Error(`serve ended before listening:\n${stderr}`)));
    });
    const { base, key } = await started;
    const docs = await fetch(new URL('/docs/', base));
    expect(docs.status).toBe(200);
    const search = await fetch(`${base}/companies?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { data: unknown[] }).data).toHaveLength(1);
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode, stderr).toBe(0);
    expect(stderr).not.toMatch(/ERR_REQUIRE_ESM|require\(\) of ES Module/);
  }, 90_000);
});
