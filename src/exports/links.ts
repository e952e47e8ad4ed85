// Signed download links (contract §2.6): usable without an API key, valid until the export's
// expires_at, refused with 403 when any part of them was changed. The signature covers the
// export id, the target (the whole result, or one part) and the expiry.
import type { Signer } from '../app/signer.js';

/** What a link points at: the whole result (`download_url`) or one part, numbered from 1. */
export type LinkTarget = 'all' | number;

const PURPOSE = 'export-link';

export function linkPath(exportId: string, target: LinkTarget): string {
  const id = encodeURIComponent(exportId);
  return target === 'all' ? `/exports/${id}/download` : `/exports/${id}/files/${target}`;
}

function payload(exportId: string, target: LinkTarget, expires: number): string {
  return `${exportId}\n${target}\n${expires}`;
}

/** The full link: `{baseUrl}/exports/{id}/download?expires=…&signature=…`. `expires` in unix seconds. */
export function signedLink(signer: Signer, baseUrl: string, exportId: string, target: LinkTarget, expires: number): string {
  const signature = signer.sign(PURPOSE, payload(exportId, target, expires));
  return `${baseUrl}${linkPath(exportId, target)}?expires=${expires}&signature=${signature}`;
}

export type LinkCheck = { ok: true } | { ok: false; reason: 'forbidden' | 'expired' };

/**
 * Checks a link's query against its path. The signature is checked first, so a changed
 * `expires` is a tampered link (403) rather than an expired one (410).
 */
export function checkLink(
  signer: Signer,
  exportId: string,
  target: LinkTarget,
  query: { expires?: unknown; signature?: unknown },
  now: Date = new Date(),
): LinkCheck {
  const { expires, signature } = query;
  // The text as the link was made (no leading zero): any change to a link is a 403, not only one
  // that changes what the signature covers.
  if (typeof expires !== 'string' || !/^[1-9]\d{0,11}$/.test(expires) || typeof signature !== 'string') {
    return { ok: false, reason: 'forbidden' };
  }
  if (!signer.verify(PURPOSE, payload(exportId, target, Number(expires)), signature)) return { ok: false, reason: 'forbidden' };
  if (Number(expires) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true };
}
