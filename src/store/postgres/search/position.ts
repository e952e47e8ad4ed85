// Where a page starts: the cursor's sort value and the rowid of the last row of the page before
// (the number in its id). The same KeysetPosition as the SQLite store's, so a cursor made by
// one store's server is read the same way by the other's.
export interface Position {
  v: string | number | null;
  r: number;
}
