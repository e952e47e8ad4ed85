// SQLite's R*Tree has no bulk load: inserted one point at a time, 1.2 million points cost about
// 8 CPU-s of the seed, most of it choosing subtrees and splitting nodes. A packed tree is built
// here instead, the way GDAL bulk-loads its spatial indexes: points sorted along a Hilbert curve,
// cut into full leaves, parents over runs of leaves up to one root, written straight into the
// table's three shadow tables in the format rtree.c reads and rtreecheck() verifies. Later
// inserts and deletes are SQLite's own, on a tree that is valid by its rules.
import type { Db } from '../database.js';
import { hilbertOrder } from './hilbert.js';

/** Bytes of a cell with two dimensions: rowid or child node number, then four float32. */
const CELL_BYTES = 8 + 4 * 4;
/** Node numbers are rowids of `<table>_node`; the root is always 1. */
const ROOT = 1;

/** Points by ascending rowid, each with its box as rtree.c stores it (float32, rounded outwards). */
export interface Points {
  /** 32-bit while every rowid fits (4 bytes a point fewer: 12 MB of an import's peak at three million). */
  rowids: Float64Array | Uint32Array;
  /** min_lat, max_lat, min_lng, max_lng per point. */
  boxes: Float32Array;
  size: number;
}

/**
 * Every (rowid, lat, lng) of `select` (those columns, in that order, rows by ascending rowid).
 * Kept as 20 bytes a point (24 with rowids beyond 32 bits): an import's first load packs
 * millions of them in its memory budget.
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
 * Replaces the content of R*Tree `table` (columns rowid, min_lat, max_lat, min_lng, max_lng) by a
 * packed tree of the points. The table must exist; its shadow tables are written directly, so
 * the caller runs this in a transaction on a connection in unsafe mode or before the table is
 * first read through the module.
 */
export function packRtree(db: Db, table: string, points: Points): void {
  const nodeSize = db.prepare(`SELECT length(data) FROM "${table}_node" WHERE nodeno = ${ROOT}`).pluck().get() as number | undefined;
  if (!nodeSize) throw new Error(`${table}: no root node`);
  const fanout = Math.floor((nodeSize - 4) / CELL_BYTES);
  db.exec(`DELETE FROM "${table}_node"; DELETE FROM "${table}_parent"; DELETE FROM "${table}_rowid";`);
  const insertNode = db.prepare(`INSERT INTO "${table}_node" (nodeno, data) VALUES (?, ?)`);
  const insertParent = db.prepare(`INSERT INTO "${table}_parent" (nodeno, parentnode) VALUES (?, ?)`);

  // A level's entries, each an id and a box: first the points along the curve (their rowids
  // and boxes, reached through `order`), then the nodes of the level below.
  const n = points.size;
  const order = hilbertSorted(points);
  let count = n;
  let idOf = (k: number) => points.rowids[order[k]];
  let boxOf = (k: number) => points.boxes.subarray(order[k] * 4, order[k] * 4 + 4);
  const leafOf = new Uint32Array(n); // by point: the node number of its leaf
  let depth = 0;
  let nextNode = ROOT + 1;
  for (;;) {
    const runs = cutLevel(count, fanout);
    // A level of one node is the root, whatever its depth; its blob carries the depth.
    const isRoot = runs.length === 1;
    const nodes = new Float64Array(runs.length);
    const nodeBoxes = new Float32Array(runs.length * 4);
    runs.forEach(([from, to], i) => {
      const node = isRoot ? ROOT : nextNode++;
      nodes[i] = node;
      const blob = Buffer.alloc(nodeSize);
      const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
      const box = [Infinity, -Infinity, Infinity, -Infinity];
      for (let k = from; k < to; k++) {
        const cell = boxOf(k);
        writeCell(view, k - from, idOf(k), cell);
        widen(box, cell);
        if (depth === 0) leafOf[order[k]] = node;
        else insertParent.run(idOf(k), node);
      }
      view.setUint16(2, to - from);
      if (isRoot) view.setUint16(0, depth);
      insertNode.run(node, blob);
      nodeBoxes.set(box, i * 4);
    });
    if (isRoot) break;
    count = nodes.length;
    idOf = (k) => nodes[k];
    boxOf = (k) => nodeBoxes.subarray(k * 4, k * 4 + 4);
    depth++;
  }
  // rowid → leaf; the points come in rowid order, so the table is appended to.
  const insertRowid = db.prepare(`INSERT INTO "${table}_rowid" (rowid, nodeno) VALUES (?, ?)`);
  for (let p = 0; p < n; p++) insertRowid.run(points.rowids[p], leafOf[p]);
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

/** `count` entries cut into the fewest runs of at most `fanout`, as even as possible: [from, to) per node. */
function cutLevel(count: number, fanout: number): [number, number][] {
  const nodes = Math.max(1, Math.ceil(count / fanout));
  const out: [number, number][] = [];
  for (let i = 0; i < nodes; i++) out.push([Math.floor((i * count) / nodes), Math.floor(((i + 1) * count) / nodes)]);
  return out;
}

function writeCell(view: DataView, i: number, id: number, cell: ArrayLike<number>): void {
  const at = 4 + i * CELL_BYTES;
  view.setUint32(at, Math.floor(id / 2 ** 32)); // a 64-bit big-endian integer, ids < 2^53
  view.setUint32(at + 4, id >>> 0);
  for (let d = 0; d < 4; d++) view.setFloat32(at + 8 + d * 4, cell[d]);
}

function widen(box: number[], cell: ArrayLike<number>): void {
  box[0] = Math.min(box[0], cell[0]);
  box[1] = Math.max(box[1], cell[1]);
  box[2] = Math.min(box[2], cell[2]);
  box[3] = Math.max(box[3], cell[3]);
}

// rtree.c stores a coordinate as a float32 no greater (min) or no less (max) than the double
// given, so that a box never shrinks: rtreeValueDown and rtreeValueUp, reproduced.
const TOWARDS = 1 - 1 / 8388608;
const AWAY = 1 + 1 / 8388608;

function down(d: number): number {
  const f = Math.fround(d);
  return f > d ? Math.fround(d * (d < 0 ? AWAY : TOWARDS)) : f;
}

function up(d: number): number {
  const f = Math.fround(d);
  return f < d ? Math.fround(d * (d < 0 ? TOWARDS : AWAY)) : f;
}
