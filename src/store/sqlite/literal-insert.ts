// The companies INSERT with the values most new rows share written into its SQL instead of bound:
// an open-data load's new companies have no figures, website, flags or (from one of the two
// sources) SNI codes, about half of a row's 40 values, and binding a value costs the driver more
// than SQLite takes to read a literal. One statement for each set of such values a row holds (a
// first load makes two or three); rows with other values are bound in full. The stored record is
// the same either way.
import type { Db } from './database.js';

type Statement = { run(...params: unknown[]): unknown };

/** The blank value of each column that has one: written as a literal when a row holds it. */
const BLANKS: Readonly<Record<string, null | number | string>> = {
  sni_codes: '',
  website: null,
  website_status: 'okänd',
  employees_rank: 0,
  trend: 'okänd',
  revenue: null,
  profit: null,
  equity_ratio: null,
  revenue_growth: null,
  has_financials: 0,
  f_skatt: 0,
  vat_registered: 0,
  employer_registered: 0,
  verified: 0,
  advertising_blocked: 0,
  latest_financials: null,
  description: '',
  bolagsverket_standing: null,
  scb_activity: null,
  bolagsverket_hash: null,
  scb_hash: null,
};
/** Statements kept, one for each set of blanks met; past this, rows are bound in full. */
const MAX_SHAPES = 64;

interface Shape {
  statement: Statement;
  /** The positions in the row of the values bound, and one array for them. */
  bound: number[];
  args: unknown[];
}

export class LiteralInsert {
  /** Positions in the row of the columns with a blank, and the blank of each. */
  private readonly blankAt: number[] = [];
  private readonly blankValue: unknown[] = [];
  private readonly shapes = new Map<number, Shape>();

  constructor(
    private readonly db: Db,
    private readonly columns: readonly string[],
  ) {
    columns.forEach((c, i) => {
      if (!(c in BLANKS)) return;
      this.blankAt.push(i);
      this.blankValue.push(BLANKS[c]);
    });
  }

  /** Inserts a row given in the columns' order. */
  run(values: readonly unknown[]): void {
    let blanks = 0;
    for (let b = 0; b < this.blankAt.length; b++) if (values[this.blankAt[b]] === this.blankValue[b]) blanks |= 1 << b;
    const shape = this.shapeOf(blanks);
    const { bound, args } = shape;
    for (let i = 0; i < bound.length; i++) args[i] = values[bound[i]];
    // Spread, not the array: the driver reads an array element by element through V8's API.
    shape.statement.run(...args);
  }

  private shapeOf(blanks: number): Shape {
    const known = this.shapes.get(blanks);
    if (known) return known;
    // Past the statements kept, a row with other blanks is bound in full (no literal at all).
    if (this.shapes.size >= MAX_SHAPES && blanks !== 0) return this.shapeOf(0);
    const literal = new Map<number, unknown>();
    this.blankAt.forEach((at, b) => {
      if (blanks & (1 << b)) literal.set(at, this.blankValue[b]);
    });
    const bound = this.columns.map((_, i) => i).filter((i) => !literal.has(i));
    const values = this.columns.map((_, i) => (literal.has(i) ? sqlLiteral(literal.get(i)) : '?'));
    const shape: Shape = {
      statement: this.db.prepare(`INSERT INTO companies (${this.columns.join(', ')}) VALUES (${values.join(', ')})`),
      bound,
      args: new Array(bound.length),
    };
    this.shapes.set(blanks, shape);
    return shape;
  }
}

function sqlLiteral(v: unknown): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return String(v);
  return `'${String(v).replaceAll("'", "''")}'`;
}
