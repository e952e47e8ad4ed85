// The packed spatial index: a tree SQLite's R*Tree module accepts as its own (rtreecheck), that
// answers every box as one built by SQLite's inserts does, and that SQLite then keeps updating.
import Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../exports/built.js';
import { packRtree, readPoints } from '../../src/store/sqlite/bulk/packed-rtree.js';

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
    const answer = await new Promise((resolve, reject) => {
      const w = new Worker(code, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 } });
      w.once('message', resolve);
      w.once('error', reject);
    });
    expect(answer).toEqual(['ok', 1_500_000]);
  }, 120_000);
});
