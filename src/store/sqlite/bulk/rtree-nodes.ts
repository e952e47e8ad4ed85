// The packed tree's nodes, written straight into an R*Tree's three shadow tables in the format
// rtree.c reads and rtreecheck() verifies. Entries come one at a time, leaves first, in the order
// they go into the tree; a level holds only its nodes' ids and boxes, which are the entries of
// the level above. So the points can be streamed in the curve's order (streamed-rtree.ts) or
// sorted in arrays (packed-rtree.ts), and both give the same tree.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../database.js';

/** Bytes of a cell with two dimensions: rowid or child node number, then four float32. */
const CELL_BYTES = 8 + 4 * 4;
/** Node numbers are rowids of `<table>_node`; the root is always 1. */
const ROOT = 1;

/**
 * An R*Tree (columns rowid, min_lat, max_lat, min_lng, max_lng) emptied, to be filled level by
 * level from the leaves up. The table must exist; its shadow tables are written directly, so the
 * caller runs this in a transaction on a connection in unsafe mode or before the table is first
 * read through the module.
 */
export class PackedTree {
  readonly fanout: number;
  readonly nodeSize: number;
  readonly insertNode: Statement<[number, Buffer]>;
  readonly insertParent: Statement<[number, number]>;
  private readonly insertRowid: Statement<[number, number]>;
  private nextNode = ROOT + 1;

  constructor(db: Db, table: string) {
    const nodeSize = db.prepare(`SELECT length(data) FROM "${table}_node" WHERE nodeno = ${ROOT}`).pluck().get() as number | undefined;
    if (!nodeSize) throw new Error(`${table}: no root node`);
    this.nodeSize = nodeSize;
    this.fanout = Math.floor((nodeSize - 4) / CELL_BYTES);
    db.exec(`DELETE FROM "${table}_node"; DELETE FROM "${table}_parent"; DELETE FROM "${table}_rowid";`);
    this.insertNode = db.prepare<[number, Buffer]>(`INSERT INTO "${table}_node" (nodeno, data) VALUES (?, ?)`);
    this.insertParent = db.prepare<[number, number]>(`INSERT INTO "${table}_parent" (nodeno, parentnode) VALUES (?, ?)`);
    this.insertRowid = db.prepare<[number, number]>(`INSERT INTO "${table}_rowid" (rowid, nodeno) VALUES (?, ?)`);
  }

  /** The leaves, for `count` points. */
  leaves(count: number): Level {
    return new Level(this, count, 0);
  }

  /** The levels above `leaves` (all filled) up to the root. */
  finish(leaves: Level): void {
    let level = leaves;
    while (!level.isRoot) {
      level.end();
      const above = new Level(this, level.size, level.depth + 1);
      for (let i = 0; i < level.size; i++) {
        const at = i * 4;
        above.add(level.ids[i], level.boxes[at], level.boxes[at + 1], level.boxes[at + 2], level.boxes[at + 3]);
      }
      level = above;
    }
    level.end();
  }

  /** A point's leaf; `<table>_rowid` is appended to, so by ascending rowid. */
  rowid(rowid: number, leaf: number): void {
    this.insertRowid.run(rowid, leaf);
  }

  /** A level of one node is the root, whatever its depth; the others are numbered in order. */
  nodeNumber(isRoot: boolean): number {
    return isRoot ? ROOT : this.nextNode++;
  }
}

/**
 * One level of the tree: `count` entries cut into the fewest nodes of at most `fanout`, as even
 * as possible (node i holds entries [⌊i·count/nodes⌋, ⌊(i+1)·count/nodes⌋)), each node written
 * as its last entry comes.
 */
export class Level {
  readonly isRoot: boolean;
  /** Node numbers and boxes (min_lat, max_lat, min_lng, max_lng) of this level's nodes. */
  readonly ids: Float64Array;
  readonly boxes: Float32Array;
  /** How many nodes. */
  readonly size: number;
  private added = 0;
  private node = 0; // index in the level of the node being filled
  private until = 0; // the entry that ends it
  private from = 0; // the entry that began it
  private blob!: Buffer;
  private view!: DataView;
  private minLat = Infinity;
  private maxLat = -Infinity;
  private minLng = Infinity;
  private maxLng = -Infinity;

  constructor(
    private readonly tree: PackedTree,
    private readonly count: number,
    readonly depth: number,
  ) {
    this.size = Math.max(1, Math.ceil(count / tree.fanout));
    this.isRoot = this.size === 1;
    this.ids = new Float64Array(this.size);
    this.boxes = new Float32Array(this.size * 4);
    this.begin();
  }

  /** The next entry (a rowid in a leaf, a node number above); returns the node number it went into. */
  add(id: number, minLat: number, maxLat: number, minLng: number, maxLng: number): number {
    if (this.added === this.count) throw new Error('packed R*Tree: more entries than counted');
    const number = this.ids[this.node];
    const at = 4 + (this.added - this.from) * CELL_BYTES;
    const view = this.view;
    view.setUint32(at, Math.floor(id / 2 ** 32)); // a 64-bit big-endian integer, ids < 2^53
    view.setUint32(at + 4, id >>> 0);
    view.setFloat32(at + 8, minLat);
    view.setFloat32(at + 12, maxLat);
    view.setFloat32(at + 16, minLng);
    view.setFloat32(at + 20, maxLng);
    if (minLat < this.minLat) this.minLat = minLat;
    if (maxLat > this.maxLat) this.maxLat = maxLat;
    if (minLng < this.minLng) this.minLng = minLng;
    if (maxLng > this.maxLng) this.maxLng = maxLng;
    if (this.depth > 0) this.tree.insertParent.run(id, number);
    if (++this.added === this.until) {
      this.write();
      if (++this.node < this.size) this.begin();
    }
    return number;
  }

  /** Checks that every entry came; a level of none (an empty tree) is its one empty root, written here. */
  end(): void {
    if (this.added !== this.count) throw new Error(`packed R*Tree: ${this.added} entries of ${this.count} counted`);
    if (this.count === 0) this.write();
  }

  private begin(): void {
    this.from = this.added;
    this.until = Math.floor(((this.node + 1) * this.count) / this.size);
    this.ids[this.node] = this.tree.nodeNumber(this.isRoot);
    this.blob = Buffer.alloc(this.tree.nodeSize);
    this.view = new DataView(this.blob.buffer, this.blob.byteOffset, this.blob.byteLength);
    this.minLat = this.minLng = Infinity;
    this.maxLat = this.maxLng = -Infinity;
  }

  private write(): void {
    this.view.setUint16(2, this.added - this.from);
    if (this.isRoot) this.view.setUint16(0, this.depth);
    this.tree.insertNode.run(this.ids[this.node], this.blob);
    this.boxes.set([this.minLat, this.maxLat, this.minLng, this.maxLng], this.node * 4);
  }
}

// rtree.c stores a coordinate as a float32 no greater (min) or no less (max) than the double
// given, so that a box never shrinks: rtreeValueDown and rtreeValueUp, reproduced.
const TOWARDS = 1 - 1 / 8388608;
const AWAY = 1 + 1 / 8388608;

export function down(d: number): number {
  const f = Math.fround(d);
  return f > d ? Math.fround(d * (d < 0 ? AWAY : TOWARDS)) : f;
}

export function up(d: number): number {
  const f = Math.fround(d);
  return f < d ? Math.fround(d * (d < 0 ? TOWARDS : AWAY)) : f;
}
