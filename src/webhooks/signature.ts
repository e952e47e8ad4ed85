import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Bolag-Signature: t=<unix seconds>,v1=<hex hmac>[,v1=<hex hmac>...]
 *
 * Byte-compatible with Stripe's scheme so receivers can reuse Stripe's
 * verification code: HMAC-SHA256 keyed with the full secret string (including
 * the whsec_ prefix) over "<t>.<raw body>".
 */

export const DEFAULT_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';
const DIGEST_HEX_LENGTH = 64;
const HEX_RE = /^[0-9a-fA-F]+$/;
// Bounded so that a hostile header cannot make Number() lose precision.
const TIMESTAMP_RE = /^\d{1,15}$/;

function computeDigest(rawBody: string | Buffer, secret: string, t: number): Buffer {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${t}.`, 'utf8');
  // Buffers are hashed as-is: re-encoding bytes that are not valid UTF-8
  // would change them and break verification of the exact bytes received.
  if (typeof rawBody === 'string') hmac.update(rawBody, 'utf8');
  else hmac.update(rawBody);
  return hmac.digest();
}

export function signPayload(
  rawBody: string | Buffer,
  secrets: readonly string[],
  timestampSeconds: number,
): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new TypeError('timestampSeconds must be a non-negative integer');
  }
  // An unsigned delivery would look identical to a forged one; refuse loudly.
  if (secrets.length === 0) throw new TypeError('at least one webhook secret is required');
  const parts = [`t=${timestampSeconds}`];
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') throw new TypeError('webhook secrets must be non-empty strings');
    parts.push(`v1=${computeDigest(rawBody, secret, timestampSeconds).toString('hex')}`);
  }
  return parts.join(',');
}

/**
 * Strict parse: exactly one numeric t and at least one v1. Unknown schemes
 * (e.g. a future v2) are skipped so that adding one does not break old
 * receivers.
 */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | null {
  if (typeof header !== 'string' || header.length === 0 || header.length > 8192) return null;
  let t: number | undefined;
  const v1: string[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) return null;
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key === '' || value === '') return null;
    if (key === 't') {
      if (t !== undefined || !TIMESTAMP_RE.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1') {
      if (!HEX_RE.test(value)) return null;
      v1.push(value.toLowerCase());
    }
  }
  if (t === undefined || v1.length === 0) return null;
  return { t, v1 };
}

function digestMatches(expected: Buffer, candidateHex: string): boolean {
  // Length is not secret (it is fixed by the algorithm), so rejecting a
  // wrong-length candidate early leaks nothing and keeps timingSafeEqual
  // from throwing on unequal buffers.
  if (candidateHex.length !== DIGEST_HEX_LENGTH) return false;
  const candidate = Buffer.from(candidateHex, 'hex');
  if (candidate.length !== expected.length) return false;
  return timingSafeEqual(candidate, expected);
}

export type VerifyResult =
  | { ok: true; t: number }
  | { ok: false; reason: 'malformed' | 'timestamp_out_of_tolerance' | 'no_matching_signature' };

export function verifySignature(opts: {
  rawBody: string | Buffer;
  header: string;
  secrets: readonly string[];
  toleranceSeconds?: number;
  nowSeconds?: number;
}): VerifyResult {
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new TypeError('toleranceSeconds must be >= 0');
  const parsed = parseSignatureHeader(opts.header);
  if (parsed === null) return { ok: false, reason: 'malformed' };

  // No early exit: every secret/candidate pair is compared so the response
  // time does not depend on which entry (if any) matched.
  let matched = false;
  for (const secret of opts.secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    const expected = computeDigest(opts.rawBody, secret, parsed.t);
    for (const candidate of parsed.v1) {
      if (digestMatches(expected, candidate)) matched = true;
    }
  }
  // Signature before timestamp, as Stripe does: only an authentic delivery
  // gets told its timestamp is stale, a forgery just fails to match.
  if (!matched) return { ok: false, reason: 'no_matching_signature' };

  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  // Both directions: a far-future t would otherwise stay replayable forever.
  if (Math.abs(now - parsed.t) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  return { ok: true, t: parsed.t };
}

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}
