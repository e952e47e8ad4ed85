// Public company ids are `c_` plus the register's row number in base 36, zero-padded so
// that ids sort as the rows do: "ties broken by id" and keyset paging then agree.
const WIDTH = 7;

export function companyIdFromRow(row: number): string {
  return `c_${row.toString(36).padStart(WIDTH, '0')}`;
}

export function rowFromCompanyId(id: string): number | null {
  if (!/^c_[0-9a-z]{7}$/.test(id)) return null;
  const n = parseInt(id.slice(2), 36);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
