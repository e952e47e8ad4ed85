// SQLite's R*Tree has no bulk load: inserted one point at a time, 1.2 million points cost about
// 8 CPU-s of the seed, most of it choosing subtrees and splitting nodes. A packed tree is built
// here instead, the way GDAL bulk-loads its spatial indexes: points sorted along a Hilbert curve,
// cut into full leaves, parents over runs of leaves up to one root, written straight into the
// table's three shadow tables in the format rtree.c reads and rtreecheck() verifies. Later
// inserts and deletes are SQLite's own, on a tree that is valid by its rules.
// Here the points are sorted in memory, the cheapest in CPU (the seeder's); an import's first
// load, short of memory, lets SQLite sort them instead (streamed-rtree.ts): the same tree.
import type { Db } from '../database.js';
import { hilbertOrder } from './hilbert.js';
import { down, PackedTree, up } from './rtree-nodes.js';

/** Points by ascending rowid, each with its box as rtree.c stores it (float32, rounded outwards). */
export interface Points {
  /** 32-bit while every rowid fits (4 bytes a point fewer). */
  rowids: Float64Array | Uint32Array;
  /** min_lat, max_lat, min_lng, max_lng per point. */
  boxes: Float32Array;
  size: number;
}

/**
 * Every (rowid, lat, lng) of `select` (those columns, in that order, rows by ascending rowid).
 * Kept as 20 bytes a point (24 with rowids beyond 32 bits): at three million points these and
 * the sort's arrays were 75–100 MB of an import's first load, which now streams them.
 * `expected`, an upper bound of the points (the highest rowid), sizes the arrays once: grown by
 * doubling, 3.2 million points took 100 MB, and 150 MB while the last copy was made.
 */
export function readPoints(db: Db, select: string, expected = 0): Points {
  let cap = Math.max(1 << 16, expected);
  let p: Points = { rowids: new Uint32Array(cap), boxes: new Float32Array(cap * 4), size: 0 };
  for (const [rowid, lat, lng] of db.prepare(select).raw().iterate() as IterableIterator<[number, number, number]>) {
    if ((rowid < 0 || rowid > 0xffffffff) && p.rowids instanceof Uint32Array) p = { ...p, rowids: Float64Array.from(p.rowids) };
    if (p.size === cap) {
      cap *= 2;
      const rowids = new (p.rowids.constructor as Float64ArrayConstructor | Uint32ArrayConstructor)(cap);
      rowids.set(p.rowids);
      const boxes = new Float32Array(cap * 4);
      boxes.set(p.boxes);
      p = { rowids, boxes, size: p.size };
    }
    if (p.size > 0 && rowid <= p.rowids[p.size - 1]) throw new Error('readPoints: rows must come by ascending rowid');
    p.rowids[p.size] = rowid;
    const at = p.size * 4;
    p.boxes[at] = down(lat);
    p.boxes[at + 1] = up(lat);
    p.boxes[at + 2] = down(lng);
    p.boxes[at + 3] = up(lng);
    p.size++;
  }
  return p;
}

/**
 * Replaces the content of R*Tree `table` by a packed tree of the points, sorted here in memory
 * (about 32 bytes a point at the peak: the points, the curve's keys, the order and the leaves).
 * As PackedTree (rtree-nodes.ts): in a transaction, in unsafe mode or before the table is read.
 */
export function packRtree(db: Db, table: string, points: Points): void {
  const tree = new PackedTree(db, table);
  const n = points.size;
  const order = hilbertSorted(points);
  const leaves = tree.leaves(n);
  const leafOf = new Uint32Array(n); // by point: the node number of its leaf
  for (let k = 0; k < n; k++) {
    const p = order[k];
    const at = p * 4;
    leafOf[p] = leaves.add(points.rowids[p], points.boxes[at], points.boxes[at + 1], points.boxes[at + 2], points.boxes[at + 3]);
  }
  tree.finish(leaves);
  // The points come in rowid order, so the rowid table is appended to.
  for (let p = 0; p < n; p++) tree.rowid(points.rowids[p], leafOf[p]);
}

/** Points by position along the Hilbert curve (ties by rowid, so that the tree is deterministic). */
function hilbertSorted(points: Points): Uint32Array {
  // One 64-bit key a point, the curve's position (< 2^32) above the point's index (rowids
  // ascend with it, so ties go by rowid), sorted natively. A comparator sort copied the
  // indexes onto the JavaScript heap: at a million points more than an import's index thread
  // has (16 MB), which then died and left all its work to the importer's thread.
  // The curve over the boxes' float32 corners: the same order to within a few centimetres.
  const keys = new BigUint64Array(points.size);
  const words = new Uint32Array(keys.buffer);
  const [low, high] = LITTLE_ENDIAN ? [0, 1] : [1, 0];
  for (let i = 0; i < points.size; i++) {
    words[2 * i + low] = i;
    words[2 * i + high] = hilbertOrder(points.boxes[i * 4], points.boxes[i * 4 + 2]);
  }
  keys.sort();
  const order = new Uint32Array(points.size);
  for (let i = 0; i < order.length; i++) order[i] = words[2 * i + low];
  return order;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
