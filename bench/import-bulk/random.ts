// Deterministic randomness for the generated bulk files: a value per (row, purpose, week).
export function hash(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h ^= p;
    h = Math.imul(h, 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
  }
  return (h >>> 0) / 4294967296;
}

export function pick<T>(items: readonly T[], r: number): T {
  return items[Math.floor(r * items.length)];
}

export function luhn(nine: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let d = nine.charCodeAt(i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return nine + String((10 - (sum % 10)) % 10);
}

/** A unique, valid org nr for row i of a legal person; `groupDigit` says what kind (5 AB, 7, 8, 9). */
export function orgNrOf(i: number, groupDigit: string): string {
  return luhn(`${groupDigit}${5 + (i % 5)}${20 + (Math.floor(i / 5) % 80)}${String(Math.floor(i / 400)).padStart(5, '0')}`);
}

/** A unique personal identity number (12 digits) for row i. */
export function personNrOf(i: number): string {
  const year = 40 + (i % 60);
  const month = 1 + (Math.floor(i / 60) % 12);
  const day = 1 + (Math.floor(i / 720) % 28);
  const serial = String(Math.floor(i / 20160) % 1000).padStart(3, '0');
  return `19${luhn(`${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}${serial}`)}`;
}
