// An older week's file after a newer one is refused (exit 2, nothing changed, no events), unless
// --allow-older: it would roll every change since back and send each as a webhook. The date is
// SCB's in its file name, else the zip's for its entry; the same file again passes. Two imports
// of a source at once run one after the other, so the older one is refused whichever starts
// first. The built binary on SQLite and, with DATABASE_URL, on PostgreSQL.
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { fileEdition, timeInName } from '../../src/import/source/file-edition.js';
import { bolag, BUILT, cleanEnv, ROOT } from '../cli/helpers.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl } from '../helpers/pg.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'open-data');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const dir = mkdtempSync(join(tmpdir(), 'bolag-older-file-'));
const schemas: string[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const s of schemas) await dropSchema(s);
});

async function zipWith(entry: string, data: Buffer, name: string, mtime?: Date): Promise<string> {
  const dest = join(dir, name);
  const zip = new yazl.ZipFile();
  zip.addBuffer(data, entry, mtime ? { mtime } : {});
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(dest)).on('close', resolve).on('error', reject));
  return dest;
}

interface Summary {
  created: number;
  updated: number;
  events: Record<string, number>;
}

describe('the date of a source file', () => {
  it("is SCB's in the file name, else the zip's for its entry, else unknown", async () => {
    expect(timeInName('scb_bulkfil_JE_20260629T055245_80.txt')?.toISOString()).toBe('2026-06-29T05:52:45.000Z');
    expect(timeInName('/x/y/scb_bulkfil_JE_20260629T055245.txt')?.toISOString()).toBe('2026-06-29T05:52:45.000Z');
    expect(timeInName('scb_bulkfil_JE_20251117T0930_1.txt')?.toISOString()).toBe('2025-11-17T09:30:00.000Z');
    expect(timeInName('scb_bulkfil_JE_20261332T000000_1.txt')).toBeNull(); // no 32nd of a 13th month
    expect(timeInName('bolagsverket_bulkfil.txt')).toBeNull();

    const named = await zipWith('scb_bulkfil_JE_20261123T061500_81.txt', Buffer.from('x'), 'named.zip', new Date('2020-01-01T00:00:00Z'));
    expect((await fileEdition(named))?.toISOString()).toBe('2026-11-23T06:15:00.000Z');
    const dated = await zipWith('bolagsverket_bulkfil.txt', Buffer.from('x'), 'dated.zip', new Date('2026-11-23T06:15:00Z'));
    expect((await fileEdition(dated))?.toISOString()).toBe('2026-11-23T06:15:00.000Z');
    const plain = join(dir, 'bolagsverket_bulkfil.txt');
    writeFileSync(plain, 'x');
    expect(await fileEdition(plain)).toBeNull();
  });
});

const stores = [
  { name: 'SQLite', target: () => ['--db', join(dir, `register-${Math.random().toString(36).slice(2)}.db`)] },
  ...(DATABASE_URL
    ? [
        {
          name: 'PostgreSQL',
          target: () => {
            const { url, schema } = freshSchemaUrl();
            schemas.push(schema);
            return ['--database-url', url];
          },
        },
      ]
    : []),
];

describe.skipIf(!BUILT).each(stores)('an older file than the register took, on $name', ({ target }) => {
  it('is refused unless --allow-older; the same file again passes', async () => {
    const register = target();
    const run = async (file: string, source: string, ...more: string[]) => {
      const r = await bolag([...register, 'db', 'import', '--source', source, file, ...more], { env: cleanEnv({ BOLAG_HOME: join(dir, 'home') }) });
      return { exitCode: r.exitCode, stderr: String(r.stderr), summary: r.exitCode === 0 ? (JSON.parse(String(r.stdout)) as Summary) : null };
    };
    const week1 = await zipWith('bolagsverket_bulkfil.txt', fixture('bolagsverket-week1.txt'), 'bv-week1.zip', new Date('2026-11-16T05:00:00Z'));
    const week2 = await zipWith('bolagsverket_bulkfil.txt', fixture('bolagsverket-week2.txt'), 'bv-week2.zip', new Date('2026-11-23T05:00:00Z'));

    expect((await run(week1, 'bolagsverket')).exitCode).toBe(0);
    const second = await run(week2, 'bolagsverket');
    expect(second.summary!.updated).toBeGreaterThan(0);

    const older = await run(week1, 'bolagsverket');
    expect(older.exitCode).toBe(2);
    expect(older.stderr.trim().split('\n')).toEqual([
      `error: ${week1}: the file is of 2026-11-16 05:00 UTC, older than the 2026-11-23 05:00 UTC file this register already took; importing it would roll back every change since and send each as a webhook. Nothing was changed. If that is what you mean, give --allow-older.`,
    ]);
    // Nothing was rolled back: this week's file finds the register as it left it.
    const again = await run(week2, 'bolagsverket');
    expect(again.exitCode).toBe(0);
    expect(again.summary).toMatchObject({ created: 0, updated: 0, events: {} });

    // Meant: rolled back, with its events; the register is that week's now, so next week's file
    // (the 23rd's again) is newer than it.
    const meant = await run(week1, 'bolagsverket', '--allow-older');
    expect(meant.exitCode, meant.stderr).toBe(0);
    expect(meant.summary!.updated).toBeGreaterThan(0);
    expect(Object.keys(meant.summary!.events).length).toBeGreaterThan(0);
    expect((await run(week2, 'bolagsverket')).summary!.updated).toBeGreaterThan(0);
    expect((await run(week1, 'bolagsverket')).exitCode).toBe(2);

    // A file with the header and nothing readable under it (a new format?), dated later: refused,
    // and not taken as the newest week.
    const header = fixture('bolagsverket-week1.txt').toString('utf8').split('\n')[0];
    const unreadable = await zipWith('bolagsverket_bulkfil.txt', Buffer.from(`${header}\nnot;a;line\nnor;this\n`), 'bv-unreadable.zip', new Date('2026-11-30T05:00:00Z'));
    expect((await run(unreadable, 'bolagsverket')).exitCode).toBe(2);
    expect((await run(week2, 'bolagsverket')).exitCode).toBe(0);
    // A date past tomorrow is a wrong clock: imported, but it holds back no real week after it.
    const future = await zipWith('bolagsverket_bulkfil.txt', fixture('bolagsverket-week2.txt'), 'bv-future.zip', new Date(Date.now() + 30 * 24 * 3600 * 1000));
    expect((await run(future, 'bolagsverket')).exitCode).toBe(0);
    expect((await run(week2, 'bolagsverket')).exitCode).toBe(0);

    // SCB's text files, dated by their names; each source keeps its own newest.
    const scbNew = join(dir, 'scb_bulkfil_JE_20261123T061500_81.txt');
    const scbOld = join(dir, 'scb_bulkfil_JE_20261116T061500_80.txt');
    writeFileSync(scbNew, fixture('scb-week2.txt'));
    writeFileSync(scbOld, fixture('scb-week1.txt'));
    expect((await run(scbNew, 'scb')).exitCode).toBe(0);
    const scbOlder = await run(scbOld, 'scb');
    expect(scbOlder.exitCode).toBe(2);
    expect(scbOlder.stderr).toContain('older than the 2026-11-23 06:15 UTC file');
    // A file that tells no date is not held back, but the import says it could not check it.
    const undated = join(dir, 'bolagsverket_bulkfil.txt');
    writeFileSync(undated, fixture('bolagsverket-week1.txt'));
    const unchecked = await run(undated, 'bolagsverket');
    expect(unchecked.exitCode).toBe(0);
    expect(unchecked.stderr).toContain(`Warning: ${undated} tells no date (neither its name nor a zip gives one, or the one it gives is past tomorrow), so it cannot be checked against the newest week this register took`);

    // A register replaced by a generated one holds no source's week any more.
    const seeded = await bolag([...register, 'db', 'seed', '--replace', '--count', '100'], { env: cleanEnv({ BOLAG_HOME: join(dir, 'home') }) });
    expect(seeded.exitCode, String(seeded.stderr)).toBe(0);
    expect((await run(week1, 'bolagsverket')).exitCode).toBe(0);
  }, 120_000);

  it('runs two imports of a source one after the other: the register ends at the newer week', async () => {
    const register = target();
    const env = cleanEnv({ BOLAG_HOME: join(dir, 'home') });
    const run = (file: string) => bolag([...register, 'db', 'import', '--source', 'bolagsverket', file], { env });
    const week1 = await zipWith('bolagsverket_bulkfil.txt', fixture('bolagsverket-week1.txt'), 'race-week1.zip', new Date('2026-11-16T05:00:00Z'));
    const week2 = await zipWith('bolagsverket_bulkfil.txt', fixture('bolagsverket-week2.txt'), 'race-week2.zip', new Date('2026-11-23T05:00:00Z'));
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([run(week2), run(week1)]);
      // Whichever took the lock first: the newer ran, and the older either ran before it or was refused.
      expect(a.exitCode, String(a.stderr)).toBe(0);
      expect([0, 2]).toContain(b.exitCode);
      if (b.exitCode === 2) expect(String(b.stderr)).toMatch(/older than the 2026-11-23 05:00 UTC file/);
    }
    const company = await bolag([...register, '--local', 'company', '5566778899', '--format', 'json'], { env });
    expect(JSON.parse(String(company.stdout)).name, String(company.stderr)).toBe('Exempel Sverige Holding AB');
  }, 120_000);
});
