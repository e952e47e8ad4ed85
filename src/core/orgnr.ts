// Swedish organisation and personal identity numbers: 10 digits, Luhn check digit last.

/** The Luhn check digit for the first nine digits. */
export function luhnCheckDigit(nineDigits: string): number {
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let d = nineDigits.charCodeAt(i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Digits only: accepts `5566778899`, `556677-8899` and the 12-digit `16`-prefixed form. */
export function normalizeOrgNr(value: string): string | null {
  const digits = value.replace(/[-\s]/g, '');
  if (/^16\d{10}$/.test(digits)) return digits.slice(2);
  return /^\d{10}$/.test(digits) ? digits : null;
}

export function formatOrgNr(tenDigits: string): string {
  return `${tenDigits.slice(0, 6)}-${tenDigits.slice(6)}`;
}

export function isValidOrgNr(value: string): boolean {
  const digits = normalizeOrgNr(value);
  if (!digits) return false;
  return luhnCheckDigit(digits.slice(0, 9)) === digits.charCodeAt(9) - 48;
}

/** Completes nine digits with their check digit and formats as `NNNNNN-NNNN`. */
export function withCheckDigit(nineDigits: string): string {
  return formatOrgNr(nineDigits + String(luhnCheckDigit(nineDigits)));
}

/**
 * A personal identity (or co-ordination) number, as a sole trader is registered under: its
 * third and fourth digits are a month, 01–12, where an organisation number's third digit is at
 * least 2 (Skatteverket). Ten digits, as a number too (leading zeros lost).
 */
export function isPersonalNumber(tenDigits: string | number): boolean {
  return Math.floor(Number(tenDigits) / 1e7) % 10 < 2;
}
