// Opaque search cursors: the keyset position, bound to a fingerprint of the query (filters,
// sort, fields, expand; not limit), signed so a tampered or borrowed cursor is refused.
import { createHash } from 'node:crypto';
import type { SearchFilters, SearchQuery } from '../core/search-params.js';
import { fold } from '../core/text.js';
import type { KeysetPosition } from '../store/store.js';
import type { Signer } from '../app/signer.js';

const PURPOSE = 'cursor';

export function queryFingerprint(q: SearchQuery): string {
  const bound = { filters: sameResults(q.filters), sort: q.sort, fields: q.fields ?? null, expand: q.expand };
  return createHash('sha256').update(stableJson(bound)).digest('base64url').slice(0, 22);
}

/**
 * The filters as the search reads them, so that a query spelled another way is the same query:
 * lists are sets, q is folded (as the search folds it), and a default given explicitly
 * (exclude_advertising_blocked=false) is the default left out.
 */
function sameResults(f: SearchFilters): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (k === 'exclude_advertising_blocked' && !v) continue;
    out[k] = k === 'q' && typeof v === 'string' ? fold(v).split(/\s+/).join(' ') : Array.isArray(v) ? [...new Set(v)].sort() : v;
  }
  return out;
}

export function encodeCursor(signer: Signer, position: KeysetPosition, q: SearchQuery): string {
  const payload = Buffer.from(JSON.stringify({ v: position.value, i: position.id, f: queryFingerprint(q) })).toString('base64url');
  return `${payload}.${signer.sign(PURPOSE, payload)}`;
}

/** The position, or a reason the cursor is refused. */
export function decodeCursor(signer: Signer, cursor: string, q: SearchQuery): KeysetPosition | { error: string } {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || !signer.verify(PURPOSE, payload, signature)) {
    return { error: 'is malformed or has been altered' };
  }
  let parsed: { v?: unknown; i?: unknown; f?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { error: 'is malformed' };
  }
  if (parsed.f !== queryFingerprint(q)) return { error: 'belongs to another query; only limit may change between pages' };
  const v = parsed.v;
  if (typeof parsed.i !== 'string' || !(v === null || typeof v === 'string' || typeof v === 'number')) {
    return { error: 'is malformed' };
  }
  return { value: v, id: parsed.i };
}

/** JSON with sorted keys, so equal queries give equal fingerprints. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
