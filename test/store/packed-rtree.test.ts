// The packed spatial index: a tree SQLite's R*Tree module accepts as its own (rtreecheck), that
// answers every box as one built by SQLite's inserts does, and that SQLite then keeps updating.
import Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../exports/built.js';
import { packRtree, readPoints } from '../../src/store/sqlite/bulk/packed-rtree.js';
import { down, up } from '../../src/store/sqlite/bulk/rtree-nodes.js';
import { canStream, countPoints, packRtreeStreamed } from '../../src/store/sqlite/bulk/streamed-rtree.js';

const RTREE = (name: string) => `CREATE VIRTUAL TABLE ${name} USING rtree(rowid, min_lat, max_lat, min_lng, max_lng)`;

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Points around Sweden, clustered like companies, with duplicates and a few outside the map. */
function register(n: number, seed = 1): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE points (rowid INTEGER PRIMARY KEY, lat REAL, lng REAL)');
  const rnd = random(seed);
  const cities = [[59.3293, 18.0686], [57.7089, 11.9746], [55.605, 13.0038], [67.8558, 20.2253]];
  const insert = db.prepare('INSERT INTO points (rowid, lat, lng) VALUES (?, ?, ?)');
  let rowid = 0;
  for (let i = 0; i < n; i++) {
    rowid += 1 + Math.floor(rnd() * 3); // gaps, as deleted rows leave
    const r = rnd();
    if (r < 0.05) insert.run(rowid, null, null);
    else if (r < 0.07) insert.run(rowid, -33.9 + rnd(), 151.2 + rnd()); // far outside the curve's box, negative
    else if (r < 0.1) insert.run(rowid, 59.3293, 18.0686); // the same point many times
    else {
      const [lat, lng] = cities[Math.floor(rnd() * cities.length)];
      insert.run(rowid, lat + (rnd() - 0.5) * rnd() * 4, lng + (rnd() - 0.5) * rnd() * 6);
    }
  }
  db.exec(RTREE('packed'));
  db.exec(RTREE('inserted'));
  db.exec('INSERT INTO inserted SELECT rowid, lat, lat, lng, lng FROM points WHERE lat IS NOT NULL');
  db.unsafeMode(true);
  db.transaction(() => packRtree(db, 'packed', readPoints(db, 'SELECT rowid, lat, lng FROM points WHERE lat IS NOT NULL ORDER BY rowid')))();
  db.unsafeMode(false);
  return db;
}

function inBox(db: Database.Database, table: string, box: number[]): number[] {
  return db.prepare(`SELECT rowid FROM ${table} WHERE min_lat >= ? AND max_lat <= ? AND min_lng >= ? AND max_lng <= ? ORDER BY rowid`).pluck().all(...box) as number[];
}

describe('packRtree', () => {
  for (const n of [0, 1, 51, 52, 2_700, 40_000]) {
    it(`${n.toLocaleString('en')} points: a valid tree holding every point, answering boxes as SQLite's own`, () => {
      const db = register(n, n + 7);
      expect(db.prepare("SELECT rtreecheck('packed')").pluck().get()).toBe('ok');
      expect(db.prepare('SELECT count(*) FROM packed').pluck().get()).toBe(db.prepare('SELECT count(*) FROM inserted').pluck().get());
      // Every stored box is the one SQLite would store (float32 rounded outwards).
      const differing = db.prepare(`SELECT count(*) FROM packed p JOIN inserted i ON i.rowid = p.rowid
        WHERE p.min_lat != i.min_lat OR p.max_lat != i.max_lat OR p.min_lng != i.min_lng OR p.max_lng != i.max_lng`).pluck().get();
      expect(differing).toBe(0);
      const rnd = random(n);
      for (let q = 0; q < 60; q++) {
        const lat = 55 + rnd() * 13;
        const lng = 11 + rnd() * 10;
        const r = rnd() * rnd() * 3;
        const box = [lat - r, lat + r, lng - r, lng + r];
        expect(inBox(db, 'packed', box)).toEqual(inBox(db, 'inserted', box));
      }
      // The exact point repeated and the points far away are found too.
      if (n > 100) {
        const around = [59.3292, 59.3294, 18.0685, 18.0687];
        expect(inBox(db, 'packed', around).length).toBeGreaterThan(1);
        expect(inBox(db, 'packed', around)).toEqual(inBox(db, 'inserted', around));
        expect(inBox(db, 'packed', [-40, -30, 150, 160])).toEqual(inBox(db, 'inserted', [-40, -30, 150, 160]));
      }
    });
  }

  it('stays valid as SQLite inserts, moves and deletes points in it afterwards', () => {
    const db = register(5_000, 3);
    const rnd = random(99);
    const ids = db.prepare('SELECT rowid FROM packed').pluck().all() as number[];
    for (let i = 0; i < 1_500; i++) db.prepare('DELETE FROM packed WHERE rowid = ?').run(ids[Math.floor(rnd() * ids.length)]);
    for (let i = 0; i < 1_500; i++) {
      const lat = 56 + rnd() * 10;
      const lng = 12 + rnd() * 8;
      db.prepare('INSERT OR REPLACE INTO packed VALUES (?, ?, ?, ?, ?)').run(100_000 + i, lat, lat, lng, lng);
    }
    expect(db.prepare("SELECT rtreecheck('packed')").pluck().get()).toBe('ok');
    const all = db.prepare('SELECT count(*) FROM packed').pluck().get() as number;
    expect(inBox(db, 'packed', [-90, 90, -180, 180])).toHaveLength(all);
  });

  // readPoints keeps rowids in 32 bits while they fit; a negative one or one beyond 2^32 must
  // not wrap (SQLite allows both).
  it('keeps rowids that do not fit 32 bits, negative or beyond 2^32, with an expected size', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE points (rowid INTEGER PRIMARY KEY, lat REAL, lng REAL)');
    const ids = [-(2 ** 40), -5, 1, 7, 2 ** 32 - 1, 2 ** 32, 2 ** 45 + 3];
    ids.forEach((id, i) => db.prepare('INSERT INTO points VALUES (?, ?, ?)').run(id, 56 + i / 10, 13 + i / 10));
    db.exec(RTREE('packed'));
    db.unsafeMode(true);
    db.transaction(() => packRtree(db, 'packed', readPoints(db, 'SELECT rowid, lat, lng FROM points ORDER BY rowid', 16)))();
    db.unsafeMode(false);
    expect(db.prepare("SELECT rtreecheck('packed')").pluck().get()).toBe('ok');
    expect(inBox(db, 'packed', [-90, 90, -180, 180])).toEqual(ids);
    expect(db.prepare('SELECT rowid FROM packed_rowid ORDER BY rowid').pluck().all()).toEqual(ids);
  });

  it('refuses points that do not come by rowid, which the rowid table relies on', () => {
    const db = register(10);
    expect(() => readPoints(db, 'SELECT rowid, lat, lng FROM points WHERE lat IS NOT NULL ORDER BY rowid DESC')).toThrow(/ascending rowid/);
  });

  // An import's index thread has a 16 MB JavaScript heap (side-indexes.ts); a sort that copied the
  // points' order onto it killed the thread at about a million points, silently (the importer's
  // thread then built everything again).
  it('packs 1.5 million points on a thread with an import\'s small heap', async () => {
    await ensureBuilt();
    const compiled = pathToFileURL(join(ROOT, 'dist/src/store/sqlite/bulk/packed-rtree.js')).href;
    const code = `
      const Database = require('better-sqlite3');
      const { parentPort } = require('node:worker_threads');
      import(${JSON.stringify(compiled)}).then(({ packRtree }) => {
        const n = 1_500_000;
        const p = { rowids: new Float64Array(n), boxes: new Float32Array(n * 4), size: n };
        for (let i = 0; i < n; i++) {
          const lat = 55 + ((i * 7919) % 15000) / 1000, lng = 11 + ((i * 104729) % 13000) / 1000;
          p.rowids[i] = i + 1;
          p.boxes.set([lat, lat, lng, lng], i * 4);
        }
        const db = new Database(':memory:');
        db.exec('${RTREE('g')}');
        db.unsafeMode(true);
        db.transaction(() => packRtree(db, 'g', p))();
        parentPort.postMessage([db.prepare("SELECT rtreecheck('g')").pluck().get(), db.prepare('SELECT count(*) FROM g_rowid').pluck().get()]);
      });`;
    expect(await onImportIndexThread(code)).toEqual(['ok', 1_500_000]);
  }, 120_000);

  // What an import's first load runs on that thread now (streamed-rtree.ts): the points come from
  // SQLite's sorter and only the leaf of each rowid is kept, off the heap.
  it('packs 1.5 million points streamed on a thread with an import\'s small heap', async () => {
    await ensureBuilt();
    const compiled = pathToFileURL(join(ROOT, 'dist/src/store/sqlite/bulk/streamed-rtree.js')).href;
    const code = `
      const Database = require('better-sqlite3');
      const { parentPort } = require('node:worker_threads');
      import(${JSON.stringify(compiled)}).then(({ countPoints, packRtreeStreamed }) => {
        const db = new Database(':memory:');
        db.pragma('cache_size = -4096');
        db.pragma('temp_store = FILE');
        db.exec('CREATE TABLE pts (lat REAL, lng REAL)');
        db.exec(\`WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < 1500000)
          INSERT INTO pts (rowid, lat, lng) SELECT n, 55 + ((n * 7919) % 15000) / 1000.0, 11 + ((n * 104729) % 13000) / 1000.0 FROM i\`);
        db.exec('${RTREE('g')}');
        db.unsafeMode(true);
        const select = 'SELECT rowid, lat, lng FROM pts';
        db.transaction(() => packRtreeStreamed(db, 'g', select, countPoints(db, select)))();
        parentPort.postMessage([db.prepare("SELECT rtreecheck('g')").pluck().get(), db.prepare('SELECT count(*) FROM g_rowid').pluck().get()]);
      });`;
    expect(await onImportIndexThread(code)).toEqual(['ok', 1_500_000]);
  }, 120_000);
});

/** What `code`, run on a thread with the heap of an import's index thread (side-indexes.ts), posts. */
function onImportIndexThread(code: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 } });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

/** The three shadow tables' rows, by their keys. */
function shadowTables(db: Database.Database, table: string): unknown[][] {
  return ['node', 'parent', 'rowid'].map((t) => db.prepare(`SELECT * FROM ${table}_${t} ORDER BY 1`).raw().all());
}

/** `points` (rowid, lat, lng) packed both ways, into `memory` and `streamed`. */
function packedBothWays(points: [number, number, number][]): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE points (rowid INTEGER PRIMARY KEY, lat REAL, lng REAL)');
  const insert = db.prepare('INSERT INTO points VALUES (?, ?, ?)');
  for (const p of points) insert.run(...p);
  db.exec(RTREE('memory'));
  db.exec(RTREE('streamed'));
  const select = 'SELECT rowid, lat, lng FROM points WHERE lat IS NOT NULL';
  db.unsafeMode(true);
  db.transaction(() => {
    packRtree(db, 'memory', readPoints(db, `${select} ORDER BY rowid`));
    const counted = countPoints(db, select);
    expect(canStream(counted)).toBe(true);
    packRtreeStreamed(db, 'streamed', select, counted);
  })();
  db.unsafeMode(false);
  return db;
}

/** `n` points from rowid 1 without gaps, clustered, a tenth of them on one position. */
function densePoints(n: number, seed: number): [number, number, number][] {
  const rnd = random(seed);
  return Array.from({ length: n }, (_, i) => (rnd() < 0.1 ? [i + 1, 59.3293, 18.0686] : [i + 1, 55 + rnd() * 14, 11 + rnd() * 13]));
}

describe('packRtreeStreamed', () => {
  // 51 is the fanout (rtree.c's RTREE_MAXCELLS); 2,602 = 51² + 1 needs three levels.
  const cases: [string, [number, number, number][]][] = [
    ['no points', []],
    ['one point', [[1, 59.3, 18.1]]],
    ['exactly a full leaf (51)', densePoints(51, 1)],
    ['one more than a leaf holds (52)', densePoints(52, 2)],
    ['every point on one position', Array.from({ length: 300 }, (_, i) => [i + 1, 57.7089, 11.9746] as [number, number, number])],
    ['one more than two full levels (2,602)', densePoints(2_602, 3)],
    ['5,000 random points', densePoints(5_000, 4)],
  ];
  for (const [name, points] of cases) {
    it(`${name}: the same shadow tables as packed in memory, a valid tree`, () => {
      const db = packedBothWays(points);
      expect(shadowTables(db, 'streamed')).toEqual(shadowTables(db, 'memory'));
      expect(db.prepare("SELECT rtreecheck('streamed')").pluck().get()).toBe('ok');
      expect(db.prepare('SELECT count(*) FROM streamed').pluck().get()).toBe(points.length);
    });
  }

  it('the same tree for clustered points with gaps, positions outside the map and without; boxes answered as by brute force', () => {
    const db = register(8_000, 11); // rowids with gaps, 5 % without a position, some in Australia
    db.exec(RTREE('streamed'));
    const select = 'SELECT rowid, lat, lng FROM points WHERE lat IS NOT NULL';
    db.unsafeMode(true);
    db.transaction(() => packRtreeStreamed(db, 'streamed', select, countPoints(db, select)))();
    db.unsafeMode(false);
    expect(shadowTables(db, 'streamed')).toEqual(shadowTables(db, 'packed'));
    expect(db.prepare("SELECT rtreecheck('streamed')").pluck().get()).toBe('ok');
    // As rtree.c compares: the stored float32 box of each point (rounded outwards).
    const points = db.prepare(select).raw().all() as [number, number, number][];
    const rnd = random(5);
    for (let q = 0; q < 60; q++) {
      const lat = 55 + rnd() * 13;
      const lng = 11 + rnd() * 10;
      const r = rnd() * rnd() * 3;
      const box = [lat - r, lat + r, lng - r, lng + r];
      const brute = points.filter(([, la, ln]) => down(la) >= box[0] && up(la) <= box[1] && down(ln) >= box[2] && up(ln) <= box[3]).map(([id]) => id);
      expect(inBox(db, 'streamed', box)).toEqual(brute);
    }
  });

  it('leaves to the in-memory packer rowids an array by rowid cannot hold', () => {
    const counted = (rowids: number[]) => {
      const db = new Database(':memory:');
      db.exec('CREATE TABLE points (rowid INTEGER PRIMARY KEY, lat REAL, lng REAL)');
      for (const id of rowids) db.prepare('INSERT INTO points VALUES (?, 58, 15)').run(id);
      return countPoints(db, 'SELECT rowid, lat, lng FROM points');
    };
    expect(counted([])).toEqual({ count: 0, lowest: 0, highest: 0 });
    expect(canStream(counted([1, 2, 3]))).toBe(true);
    expect(canStream(counted([-1, 2, 3]))).toBe(false);
    expect(canStream(counted([1, 2, 1000]))).toBe(false); // far above the count
    expect(canStream(counted([2 ** 26 + 1]))).toBe(false);
  });
});
