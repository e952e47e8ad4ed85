// The packed spatial index (packed-rtree.ts) without the points in memory, for an import's first
// load, whose peak it was: SQLite sorts the points along the curve (its sorter spills to
// temporary files), each leaf is written as its last point comes, and all that is kept is the
// leaf of each rowid (4 bytes a rowid) and the nodes above the leaves: ~12 MB at three million
// points against ~90 MB of arrays in memory. The tree is the same, cell for cell: the same curve
// over the same float32 corners, ties by rowid, and the leaves cut by the same count.
import type { Db } from '../database.js';
import { hilbertOrder } from './hilbert.js';
import { down, PackedTree, up } from './rtree-nodes.js';

/** The SQL function of the curve's position, registered on the connection that sorts. */
const CURVE = 'packed_rtree_curve';
/** The leaf array is by rowid: at most this many (256 MB)… */
const MAX_HIGHEST_ROWID = 1 << 26;
/** …and at most this many rowids a point: beyond, the array would be as large as the points' in memory. */
const MAX_ROWIDS_PER_POINT = 4;

/** How many points `select` gives and their rowids' range (0 and 0 when none). */
export interface PointCount {
  count: number;
  lowest: number;
  highest: number;
}

/** `select` as for packRtreeStreamed; one pass over the rows, before the sort. */
export function countPoints(db: Db, select: string): PointCount {
  const [count, lowest, highest] = db.prepare(`WITH p(id, lat, lng) AS (${select}) SELECT count(*), min(id), max(id) FROM p`).raw().get() as [number, number | null, number | null];
  return { count, lowest: lowest ?? 0, highest: highest ?? 0 };
}

/**
 * Whether the points' leaves fit an array by rowid: rowids from 0 and dense enough, as a first
 * load numbers them (from 1, without gaps but the companies without a position). Otherwise the
 * caller packs in memory (packRtree).
 */
export function canStream(points: PointCount): boolean {
  return points.lowest >= 0 && points.highest <= MAX_HIGHEST_ROWID && points.highest <= MAX_ROWIDS_PER_POINT * Math.max(points.count, 1);
}

/**
 * Replaces the content of R*Tree `table` by the packed tree of the points of `select` (rowid,
 * lat, lng of each point, in any order; `counted` its countPoints, in the same transaction, and
 * canStream). As PackedTree (rtree-nodes.ts), in a transaction; in unsafe mode always: the tree
 * is written while the sorted points are read.
 */
export function packRtreeStreamed(db: Db, table: string, select: string, counted: PointCount): void {
  if (!canStream(counted)) throw new Error(`${table}: rowids ${counted.lowest}…${counted.highest} for ${counted.count} points, not by an array`);
  // The value packRtree sorts by: the curve at the float32 corner rtree.c stores.
  db.function(CURVE, { deterministic: true }, (lat, lng) => hilbertOrder(down(lat as number), down(lng as number)));
  const tree = new PackedTree(db, table);
  const leaves = tree.leaves(counted.count);
  const leafOf = new Uint32Array(counted.highest + 1); // by rowid; 0: no point (the root is 1)
  // An integer key: SQLite's sorter compares integers first without decoding the records (the
  // function's numbers come back as REAL; 1.83 → 1.63 CPU-s for 1.2 million points).
  const sorted = db.prepare(`WITH p(id, lat, lng) AS (${select}) SELECT id, lat, lng FROM p ORDER BY CAST(${CURVE}(lat, lng) AS INTEGER), id`);
  for (const [rowid, lat, lng] of sorted.raw().iterate() as IterableIterator<[number, number, number]>) {
    leafOf[rowid] = leaves.add(rowid, down(lat), up(lat), down(lng), up(lng));
  }
  tree.finish(leaves);
  for (let rowid = counted.lowest; rowid <= counted.highest; rowid++) if (leafOf[rowid] !== 0) tree.rowid(rowid, leafOf[rowid]);
}
