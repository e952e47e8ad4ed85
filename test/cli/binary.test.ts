// The binary's own behaviour: help, version, the --serve alias, completion scripts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, BUILT, ROOT, bolag, cleanEnv } from './helpers.js';

describe.runIf(BUILT)('the bolag binary', () => {
  it('--help lists the commands and exits 0', async () => {
    const r = await bolag(['--help']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/search\s+Search companies/);
    expect(String(r.stdout)).toMatch(/--base-url <url>/);
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = await bolag(['--version']);
    expect(String(r.stdout).trim()).toBe(pkg.version);
  });

  it('search --help shows every filter as a flag', async () => {
    const r = await bolag(['search', '--help']);
    expect(r.exitCode).toBe(0);
    for (const flag of ['--revenue-min', '--near', '--f-skatt', '--legal-form', '--exclude-advertising-blocked', '--all', '--max', '--cursor', '--count', '--format']) {
      expect(String(r.stdout)).toContain(flag);
    }
  });

  it('--help loads neither the server, the database, the HTTP client, the config nor the prompts', async () => {
    for (const args of [['--help'], ['search', '--help'], ['company', '--help']]) {
      const dir = mkdtempSync(join(tmpdir(), 'bolag-load-'));
      const log = join(dir, 'loaded.txt');
      const logger = join(dir, 'log-imports.mjs');
      writeFileSync(log, '');
      writeFileSync(logger, LOAD_LOGGER);
      const r = await execa('node', ['--import', pathToFileURL(logger).href, BIN, ...args], {
        reject: false,
        env: { BOLAG_LOAD_LOG: log },
      });
      expect(r.exitCode).toBe(0);
      const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      expect(loaded.some((u) => u.includes('/dist/src/cli/main.js'))).toBe(true);
      rmSync(dir, { recursive: true, force: true });
      const heavy = loaded.filter((u) => /\/src\/(server|store|seed|exports|webhooks)\/|\/local\/local-register|better-sqlite3|fastify|@inquirer|\/undici\/|\/conf\/|\/ora\/|http-client/.test(u));
      expect(heavy, `loaded by bolag ${args.join(' ')}`).toEqual([]);
    }
  });

  it('unknown commands are usage errors (exit 2)', async () => {
    const r = await bolag(['frobnicate']);
    expect(r.exitCode).toBe(2);
  });

  it('the help of an unknown command is a usage error with a did-you-mean, not the root help (exit 2)', async () => {
    for (const args of [['exports', '--help'], ['exports', 'create', '-h'], ['help', 'exports']]) {
      const r = await bolag(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(String(r.stdout), args.join(' ')).toBe('');
      expect(String(r.stderr).trim(), args.join(' ')).toBe("error: unknown command 'exports' (Did you mean export?)");
    }
    const known = await bolag(['export', '--help']);
    expect(known.exitCode).toBe(0);
    expect(String(known.stdout)).toMatch(/^Usage: bolag export/);
  });

  it('a command group run without its command shows its help on stderr and is a usage error (exit 2)', async () => {
    for (const args of [[], ['db'], ['export'], ['webhooks']]) {
      const r = await bolag(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(String(r.stdout), args.join(' ')).toBe('');
      expect(String(r.stderr), args.join(' ')).toMatch(/^Usage: bolag/);
    }
  });

  it('completion scripts shipped in completions/ equal the generated ones', async () => {
    for (const [shell, file] of [['bash', 'bolag.bash'], ['zsh', '_bolag'], ['fish', 'bolag.fish']]) {
      const r = await bolag(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(String(r.stdout), `completions/${file} is stale: run node bin/bolag.js completion --out-dir completions`).toBe(
        readFileSync(join(ROOT, 'completions', file), 'utf8'),
      );
    }
  });

  it('the bash script loads: bash -n, and complete -p registers _bolag', async () => {
    const file = join(ROOT, 'completions', 'bolag.bash');
    expect((await execa('bash', ['-n', file], { reject: false })).exitCode).toBe(0);
    const r = await execa('bash', ['-c', `source ${JSON.stringify(file)} && complete -p bolag`]);
    expect(String(r.stdout).trim()).toBe('complete -F _bolag bolag');
  });

  it('the bash function completes commands, flags and enum values', async () => {
    const file = join(ROOT, 'completions', 'bolag.bash');
    const complete = async (...words: string[]) => {
      const script = `source ${JSON.stringify(file)}
COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
_bolag; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return String((await execa('bash', ['-c', script])).stdout).split('\n').filter(Boolean);
    };
    expect(await complete('bolag', 'sea')).toEqual(['search']);
    expect(await complete('bolag', 'search', '--format', '')).toEqual(['table', 'csv', 'jsonl', 'json']);
    expect(await complete('bolag', 'search', '--legal-form', 'aktie')).toEqual(['aktiebolag']);
    expect(await complete('bolag', 'search', '--status', 'kon')).toEqual(['konkurs']);
    expect(await complete('bolag', 'search', '--county', 'Skå')).toEqual(['Skåne\\ län']);
    // In any case: "st" for Stockholms län, also after a comma.
    expect(await complete('bolag', 'search', '--county', 'st')).toEqual(['Stockholms\\ län']);
    expect(await complete('bolag', 'search', '--legal-form', 'AKTIE')).toEqual(['aktiebolag']);
    expect(await complete('bolag', 'search', '--status', 'aktiv,KON')).toEqual(['aktiv,konkurs']);
    expect(await complete('bolag', 'search', '--sort', '-reven')).toEqual(['-revenue', '-revenue_growth']);
    expect(await complete('bolag', '--profile', 'x', 'config', '')).toEqual(['get', 'set', 'unset', 'list', 'profiles']);
    expect(await complete('bolag', 'search', '--no-f-sk')).toEqual(['--no-f-skatt']);
    expect((await complete('bolag', 'search', '--category', '')).length).toBeGreaterThan(10);
    // A list value: completed after its last comma, the values before it kept.
    expect(await complete('bolag', 'webhooks', 'create', '--events', 'company.created,company.st')).toEqual(['company.created,company.status_changed']);
    expect(await complete('bolag', 'search', '--status', 'aktiv,kon')).toEqual(['aktiv,konkurs']);
    // File names only where a file or folder goes: not for a profile, a position or a number.
    const dir = mkdtempSync(join(tmpdir(), 'bolag-complete-'));
    try {
      writeFileSync(join(dir, 'register.db'), '');
      for (const words of [['--profile'], ['search', '--near'], ['search', '--limit'], ['search', '--max']]) {
        expect(await complete('bolag', ...words, join(dir, 'reg')), words.join(' ')).toEqual([]);
      }
      expect(await complete('bolag', '--db', join(dir, 'reg'))).toEqual([join(dir, 'register.db')]);
      expect(await complete('bolag', 'export', 'download', 'exp_1', '--out', join(dir, 'reg'))).toEqual([join(dir, 'register.db')]);
      expect(await complete('bolag', 'db', 'import', join(dir, 'reg'))).toEqual([join(dir, 'register.db')]);
      expect(await complete('bolag', 'company', join(dir, 'reg'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bash completes --profile with the profiles of this machine (bolag config profiles)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-complete-profiles-'));
    try {
      // The script runs `bolag` from PATH, as it is once installed.
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin', 'bolag'), `#!/bin/sh\nexec node ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
      const env = cleanEnv({ BOLAG_HOME: join(dir, 'home'), PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}` });
      expect(String((await bolag(['config', 'profiles'], { env })).stdout)).toBe('');
      for (const name of ['work', 'prod']) {
        expect((await bolag(['--profile', name, 'config', 'set', 'base_url', `https://${name}.example.se`], { env })).exitCode).toBe(0);
      }
      const listed = await bolag(['config', 'profiles'], { env: { ...env, BOLAG_PROFILE: 'nonesuch' } });
      expect([listed.exitCode, String(listed.stdout)]).toEqual([0, 'prod\nwork\n']);
      const script = (words: string[]) => `source ${JSON.stringify(join(ROOT, 'completions', 'bolag.bash'))}
COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
_bolag; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const complete = async (...words: string[]) => String((await execa('bash', ['-c', script(words)], { env, extendEnv: false })).stdout).split('\n').filter(Boolean);
      expect(await complete('bolag', '--profile', '')).toEqual(['prod', 'work']);
      expect(await complete('bolag', 'search', '--profile', 'w')).toEqual(['work']);
      // bash splits --profile=p at the "=".
      expect(await complete('bolag', 'webhooks', 'list', '--profile', '=', 'p')).toEqual(['prod']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(hasShell('zsh'))('the zsh script parses (zsh -n)', async () => {
    expect((await execa('zsh', ['-n', join(ROOT, 'completions', '_bolag')], { reject: false })).exitCode).toBe(0);
  });

  it.runIf(hasShell('fish'))('the fish script loads and completes', async () => {
    const file = join(ROOT, 'completions', 'bolag.fish');
    const r = await execa('fish', ['-c', `source ${file}; complete -C "bolag search --format "`]);
    expect(String(r.stdout).split('\n').map((l) => l.split('\t')[0])).toEqual(['csv', 'json', 'jsonl', 'table']);
  });

  it('bolag --serve is bolag serve', async () => {
    const r = await bolag(['--serve', '--help']);
    const direct = await bolag(['serve', '--help']);
    expect(r.exitCode).toBe(direct.exitCode);
    expect(String(r.stdout)).toBe(String(direct.stdout));
  });
});

/** Appends the URL of every module the process imports to $BOLAG_LOAD_LOG (runs in the hooks thread). */
const LOAD_LOGGER = String.raw`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${'`'}
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.BOLAG_LOAD_LOG, result.url + '\\n');
  return result;
}${'`'}));
`;

function hasShell(name: string): boolean {
  return spawnSync('which', [name]).status === 0;
}
