// Writes one company (import): the row with its word vector and SNI array, in the caller's
// transaction. The indexes, the full-text one included, follow by themselves.
import type pg from 'pg';
import type { Company } from '../../core/company.js';
import { companyToPgRow, PG_COLUMNS, type PgCompanyRow, rowValues } from './company-row.js';

const INSERT = `INSERT INTO companies (${PG_COLUMNS.join(', ')}) VALUES (${PG_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;
const UPDATE = `UPDATE companies SET ${PG_COLUMNS.map((c, i) => (c === 'rowid' ? null : `${c} = $${i + 1}`))
  .filter(Boolean)
  .join(', ')} WHERE rowid = $${PG_COLUMNS.indexOf('rowid') + 1}`;

export async function insertCompany(client: pg.ClientBase, company: Company, rowid: number): Promise<PgCompanyRow> {
  const row = companyToPgRow(company, rowid);
  await client.query(INSERT, rowValues(row));
  return row;
}

export async function replaceCompany(client: pg.ClientBase, company: Company, rowid: number): Promise<PgCompanyRow> {
  const row = companyToPgRow(company, rowid);
  await client.query(UPDATE, rowValues(row));
  return row;
}
