// `bolag search` end to end: the built binary against a real server on a loopback port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { parseCsv, CSV_BOM } from '../../src/core/csv.js';
import { BIN, BUILT, bolag, jsonLines, pageByHand, serverEnv, startCliServer, type CliServer } from './helpers.js';

describe.runIf(BUILT)('bolag search against a real server', () => {
  let s: CliServer;
  let env: Record<string, string>;
  let everything: Record<string, unknown>[];

  beforeAll(async () => {
    s = await startCliServer();
    env = serverEnv(s);
    everything = await pageByHand(s, { limit: '100' });
  }, 120_000);
  afterAll(async () => s?.close());

  it('writes JSONL in a pipe by default, the API records unchanged', async () => {
    const r = await bolag(['search', '--limit', '5'], { env });
    expect(r.exitCode).toBe(0);
    const rows = jsonLines(String(r.stdout));
    expect(rows).toEqual(everything.slice(0, 5));
  });

  it('writes JSON as one array', async () => {
    const r = await bolag(['search', '--limit', '3', '--format', 'json'], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual(everything.slice(0, 3));
  });

  it('names distance_km and latest_financials in --fields once each, as columns', async () => {
    const near = await bolag(['search', '--near', '59.33,18.06', '--radius-km', '500', '--fields', 'name,distance_km', '--limit', '2', '--format', 'csv'], { env });
    expect(near.exitCode, String(near.stderr)).toBe(0);
    expect(parseCsv(String(near.stdout))[0]).toEqual(['id', 'name', 'distance_km']);
    const money = await bolag(['search', '--expand', 'latest_financials', '--fields', 'name,latest_financials', '--limit', '2', '--format', 'csv'], { env });
    expect(money.exitCode, String(money.stderr)).toBe(0);
    const header = parseCsv(String(money.stdout))[0];
    expect(header.slice(0, 2)).toEqual(['id', 'name']);
    expect(header.length).toBeGreaterThan(3);
    expect(new Set(header).size).toBe(header.length);
    expect(header.slice(2).every((h) => h.startsWith('latest_financials.'))).toBe(true);
  });

  it('writes CSV in the export dialect: BOM, ;, header, quoting, dotted columns', async () => {
    const r = await bolag(['search', '--limit', '4', '--format', 'csv'], { env });
    expect(r.exitCode).toBe(0);
    const text = String(r.stdout);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text).toContain('\r\n');
    const [header, ...rows] = parseCsv(text);
    expect(header).toContain('address.city');
    expect(header).toContain('category.slug');
    expect(header).toContain('location.lat');
    expect(rows).toHaveLength(4);
    const first = Object.fromEntries(header.map((h, i) => [h, rows[0][i]]));
    const want = everything[0] as { org_nr: string; name: string; address: { city: string }; sni_codes: string[] };
    expect(first.org_nr).toBe(want.org_nr);
    expect(first.name).toBe(want.name);
    expect(first['address.city']).toBe(want.address.city);
    expect(first.sni_codes).toBe(want.sni_codes.join(','));
  });

  it('draws a table that fits the terminal width', async () => {
    const r = await bolag(['search', '--limit', '5', '--format', 'table'], { env: { ...env, COLUMNS: '60' } });
    expect(r.exitCode).toBe(0);
    const lines = String(r.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ORG NR\s+NAME/);
    expect(lines).toHaveLength(6);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
    const want = everything[0] as { org_nr: string };
    expect(lines[1].startsWith(want.org_nr)).toBe(true);
  });

  it('formats revenue the Swedish way in a table', async () => {
    const r = await bolag(['search', '--limit', '20', '--format', 'table', '--sort', '-revenue'], { env: { ...env, COLUMNS: '120' } });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/\d{1,3}(\u00a0\d{3})+ kr/);
  });

  it('--all returns exactly what paging by hand returns', async () => {
    const r = await bolag(['search', '--all'], { env });
    expect(r.exitCode).toBe(0);
    const rows = jsonLines(String(r.stdout));
    expect(rows.length).toBe(everything.length);
    expect(rows.map((x) => x.id)).toEqual(everything.map((x) => x.id));
  }, 60_000);

  it('--all with a small page size still equals paging by hand', async () => {
    const r = await bolag(['search', '--all', '--limit', '7', '--county', '01'], { env });
    expect(r.exitCode).toBe(0);
    const byHand = await pageByHand(s, { limit: '7', county: '01' });
    expect(jsonLines(String(r.stdout)).map((x) => x.id)).toEqual(byHand.map((x) => x.id));
  }, 60_000);

  it('--max stops after that many rows, across pages', async () => {
    const r = await bolag(['search', '--max', '130'], { env });
    expect(r.exitCode).toBe(0);
    expect(jsonLines(String(r.stdout)).map((x) => x.id)).toEqual(everything.slice(0, 130).map((x) => x.id));
    expect(String(r.stderr)).toMatch(/more with: --cursor \S+/);
  });

  it('says how many it showed in words that agree with the number', async () => {
    const one = await bolag(['search', '--max', '1'], { env });
    expect(String(one.stderr)).toMatch(/^Showed 1 company; more with: --cursor \S+$/m);
    const two = await bolag(['search', '--max', '2'], { env });
    expect(String(two.stderr)).toMatch(/^Showed 2 companies; more with/m);
  });

  it('takes a format as typed in capitals, and still refuses an unknown one (exit 2)', async () => {
    const csv = await bolag(['search', '--limit', '2', '--format', 'CSV'], { env });
    expect(csv.exitCode).toBe(0);
    expect(String(csv.stdout).startsWith(CSV_BOM)).toBe(true);
    const xml = await bolag(['search', '--limit', '2', '--format', 'XML'], { env });
    expect(xml.exitCode).toBe(2);
    expect(String(xml.stderr)).toContain("argument 'XML' is invalid");
  });

  it('resumes from the cursor it printed', async () => {
    const first = await bolag(['search', '--max', '10', '--limit', '5'], { env });
    const cursor = /--cursor (\S+)/.exec(String(first.stderr))?.[1];
    expect(cursor).toBeDefined();
    const next = await bolag(['search', '--cursor', cursor!, '--max', '10'], { env });
    expect(next.exitCode).toBe(0);
    expect(jsonLines(String(next.stdout)).map((x) => x.id)).toEqual(everything.slice(10, 20).map((x) => x.id));
  });

  it('--count prints the number of matches', async () => {
    const r = await bolag(['search', '--count'], { env });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout).trim()).toBe(String(everything.length));
  });

  it('passes filters as the API parameters (booleans both ways)', async () => {
    const yes = jsonLines(String((await bolag(['search', '--all', '--f-skatt', '--fields', 'f_skatt'], { env })).stdout));
    const no = jsonLines(String((await bolag(['search', '--all', '--no-f-skatt', '--fields', 'f_skatt'], { env })).stdout));
    expect(yes.length).toBeGreaterThan(0);
    expect(no.length).toBeGreaterThan(0);
    expect(yes.every((x) => x.f_skatt === true)).toBe(true);
    expect(no.every((x) => x.f_skatt === false)).toBe(true);
    expect(yes.length + no.length).toBe(everything.length);
  }, 60_000);

  it('takes several words without quotes as one query, and repeated list flags together', async () => {
    const name = String(everything[0].name);
    const words = name.split(' ').slice(0, 2);
    const quoted = jsonLines(String((await bolag(['search', words.join(' '), '--all'], { env })).stdout));
    const unquoted = await bolag(['search', ...words, '--all'], { env });
    expect(unquoted.exitCode, String(unquoted.stderr)).toBe(0);
    expect(jsonLines(String(unquoted.stdout))).toEqual(quoted);
    expect(quoted.length).toBeGreaterThan(0);
    const count = async (args: string[]) => Number(String((await bolag(['search', '--count', ...args], { env })).stdout).trim());
    expect(await count(['--county', '01', '--county', '14'])).toBe(await count(['--county', '01,14']));
    const twice = await bolag(['search', '--limit', '2', '--limit', '3'], { env });
    expect(twice.exitCode).toBe(2);
    expect(String(twice.stderr)).toMatch(/given twice/);
    // `--f-skatt false` was --f-skatt and a search for the word "false": 0 matches, exit 0.
    const valued = await bolag(['search', '--f-skatt', 'false', '--count'], { env });
    expect(valued.exitCode).toBe(2);
    expect(String(valued.stderr).trim()).toBe('error: --f-skatt takes no value ("false" would be searched for); write --f-skatt for true and --no-f-skatt for false.');
    // `--f-skatt=false` was commander's "unknown option", for a flag that exists.
    for (const [args, message] of [
      [['--f-skatt=false'], 'error: --f-skatt is a switch and takes no value; write --f-skatt for true and --no-f-skatt for false.'],
      [['--no-f-skatt=1'], 'error: --no-f-skatt is a switch and takes no value; write --f-skatt for true and --no-f-skatt for false.'],
      [['--quiet=yes'], 'error: --quiet is a switch and takes no value; write --quiet alone.'],
      [['--nosuch=1'], "error: unknown option '--nosuch=1'"],
    ] as const) {
      const r = await bolag(['search', '--count', ...args], { env });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(String(r.stderr).trim()).toBe(message);
    }
  }, 60_000);

  it('--verbose adds no stack trace to a usage error', async () => {
    const r = await bolag(['search', '--countt', '--verbose'], { env });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).not.toMatch(/\bat .*node_modules|CommanderError/);
  });

  it.each([[''], ['--verbose']])('ends quietly with exit 0 when the reader closes the pipe (| head) %s', async (flag) => {
    const r = await execa('bash', ['-c', `node ${JSON.stringify(BIN)} ${flag} search --all --limit 100 | head -n 3; echo "rc=\${PIPESTATUS[0]}" >&2`], {
      env,
      extendEnv: false,
      reject: false,
    });
    expect(String(r.stdout).trim().split('\n')).toHaveLength(3);
    // --verbose logs each request on stderr, and nothing else.
    const stderr = String(r.stderr).trim().split('\n');
    expect(stderr.pop()).toBe('rc=0');
    for (const line of stderr) expect(line).toMatch(/^GET \/companies\S* → 200 /);
  }, 30_000);

  it.each([
    [['search', '--limit', '0'], /Invalid --limit/],
    [['search', '--sort', 'relevance'], /Invalid --sort: relevance needs the query/],
    [['search', '--bogus'], /unknown option '--bogus'/],
    [['search', '--near', 'abc'], /Invalid --near/],
    [['search', '--radius-km', '5'], /Invalid --radius-km: needs --near/],
    [['search', '--revenue-min', '10', '--revenue-max', '5'], /must not be above --revenue-max/],
    [['search', '--county', 'Narnia'], /Invalid --county/],
    [['search', '--format', 'xml'], /'xml' is invalid/],
    [['search', '--max', 'many'], /Invalid --max/],
    [['search', '--max', '99999999999999999999999'], /^error: Invalid --max: must be a whole number from 1 to 9007199254740991\.$/],
    // Zod's own words said as ours are.
    [['search', '--cursor', ''], /^error: Invalid --cursor: must not be empty\.$/],
    // commander's suggestion on the error's line, not one of its own.
    [['search', '--countt'], /^error: unknown option '--countt' \(Did you mean one of --count, --county\?\)$/],
    [['serach', 'bygg'], /^error: unknown command 'serach' \(Did you mean search\?\)$/],
    // A typo in a negation is offered the negation (hidden from help), not its opposite.
    [['search', '--no-fskatt'], /^error: unknown option '--no-fskatt' \(Did you mean --no-f-skatt\?\)$/],
    // A switch and its negation: refused as any flag given twice, not the last one kept.
    [['search', '--f-skatt', '--no-f-skatt'], /^error: --f-skatt or --no-f-skatt is given twice; give one of them once\.$/],
    // Any flag that takes one value: commander kept the last and the first was lost.
    [['search', '--format', 'csv', '--format', 'jsonl'], /^error: --format is given twice; give it once\.$/],
    [['search', '--max', '1', '--max', '2'], /^error: --max is given twice; give it once\.$/],
    [['--db', 'a.db', 'search', '--db', 'b.db'], /^error: --db is given twice; give it once\.$/],
    [['search', '--max', '1', '--all'], /^error: --all follows every page to the end and --max stops after n companies: give one of them\.$/],
    // A typo in an organisation number is not "no such company" (exit 4).
    [['company', '556677-8898'], /^error: 556677-8898 is not a valid organisation number: its last digit \(the check digit\) should be 9\.$/],
    // Help for a command that is not there: one line, not the whole usage.
    [['help', 'serach'], /^error: unknown command 'serach' \(Did you mean search\?\)$/],
  ])('usage error %j exits 2 before any request, in one line', async (args, message) => {
    const r = await bolag(args as string[], { env: serverEnv({ url: 'http://127.0.0.1:1/api/public/v1', key: 'k' }) });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr).trim()).toMatch(message as RegExp);
    expect(String(r.stderr).trim().split('\n')).toHaveLength(1);
    expect(String(r.stdout)).toBe('');
  });

  it('a 400 from the server (a tampered cursor) exits 2 with the request id', async () => {
    const r = await bolag(['search', '--cursor', 'not-a-cursor'], { env });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/HTTP 400 invalid_parameter, request id \S+/);
    expect(String(r.stderr).trim().split('\n')).toHaveLength(1);
  });

  it('a bad key exits 3 with the request id', async () => {
    const r = await bolag(['search', '--limit', '1'], { env: serverEnv({ url: s.url, key: 'bk_not_a_real_key' }) });
    expect(r.exitCode).toBe(3);
    expect(String(r.stderr)).toMatch(/HTTP 401 unauthorized, request id \S+/);
  });

  it('an unreachable service exits 1 with one line', async () => {
    const r = await bolag(['search', '--limit', '1'], { env: serverEnv({ url: 'http://127.0.0.1:1/api/public/v1', key: 'k' }) });
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr).trim().split('\n')).toHaveLength(1);
    expect(String(r.stderr)).toMatch(/ECONNREFUSED/);
  });

  it('Ctrl-C prints the cursor to resume with and exits 130; resuming continues where it stopped', async () => {
    const child = bolag(['search', '--all', '--limit', '1'], { env });
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.split('\n').length > 5) resolve();
      });
    });
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const cursor = /Interrupted; resume with: --cursor (\S+)/.exec(String(r.stderr))?.[1];
    expect(cursor).toBeDefined();
    const printed = jsonLines(String(r.stdout));
    const resumed = await bolag(['search', '--cursor', cursor!, '--limit', '1', '--max', '3'], { env });
    const all = everything.map((x) => x.id);
    const at = all.indexOf(printed[printed.length - 1].id);
    expect(printed.map((x) => x.id)).toEqual(all.slice(0, printed.length));
    expect(jsonLines(String(resumed.stdout)).map((x) => x.id)).toEqual(all.slice(at + 1, at + 4));
  }, 30_000);

  it('Ctrl-C between pages of --format json leaves a whole JSON array', async () => {
    const child = bolag(['search', '--all', '--limit', '1', '--format', 'json'], { env });
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if ((out.match(/"id"/g) ?? []).length >= 3) resolve();
      });
    });
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const printed = JSON.parse(String(r.stdout)) as { id: string }[];
    expect(printed.length).toBeGreaterThanOrEqual(3);
    expect(printed.map((x) => x.id)).toEqual(everything.slice(0, printed.length).map((x) => (x as { id: string }).id));
  }, 30_000);

  it('bolag company shows one company by org number, JSON in a pipe', async () => {
    const want = everything[0] as { id: string; org_nr: string };
    const r = await bolag(['company', want.org_nr.replace('-', '')], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual(want);
  });

  it('bolag company draws every field down the page as a table', async () => {
    const want = everything[0] as { id: string; org_nr: string; address: { city: string } };
    const r = await bolag(['company', want.id, '--format', 'table'], { env });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(new RegExp(`^address\\.city\\s+${want.address.city}$`, 'm'));
    expect(String(r.stdout)).toMatch(/^org_nr\s+\d{6}-\d{4}$/m);
  });

  it('takes the query as words or as --q (every GET /companies parameter is a flag), the same search', async () => {
    const word = String((everything[0] as { name: string }).name).split(' ')[0];
    const words = await bolag(['search', word, '--limit', '5'], { env });
    const flag = await bolag(['search', '--q', word, '--limit', '5'], { env });
    expect(flag.exitCode).toBe(0);
    expect(jsonLines(String(flag.stdout)).length).toBeGreaterThan(0);
    expect(String(flag.stdout)).toBe(String(words.stdout));
    const both = await bolag(['search', word, '--q', word], { env });
    expect([both.exitCode, String(both.stderr).trim()]).toEqual([2, `error: Give the query once, as words or as --q, not both ("${word}" and --q "${word}").`]);
  });

  it('bolag company exits 4 for an unknown company', async () => {
    const r = await bolag(['company', '000000-0000'], { env });
    expect(r.exitCode).toBe(4);
    expect(String(r.stderr)).toMatch(/HTTP 404 not_found, request id \S+/);
  });
});
