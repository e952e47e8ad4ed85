// What the request log may show of a URL. A download link's signature is a credential, and a
// client may put its API key in the query by mistake: such values are replaced before logging.
import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials, whatever they hold. */
const CREDENTIAL_PARAMS = new Set(['signature', 'api_key', 'apikey', 'key', 'token', 'access_token', 'secret']);
/** Our own credentials (API keys, webhook secrets) wherever they turn up in a URL. */
const CREDENTIAL_TEXT = /(bk_|whsec_)[A-Za-z0-9_\-]{8,}/g;
const HAS_CREDENTIAL = /(bk_|whsec_)[A-Za-z0-9_\-]{8,}/;

/**
 * A part of the URL with a credential in it once decoded (`bk%5F…`, `%62k_…` were logged as they
 * came): the whole part is redacted, as its encoded form cannot be edited in place.
 */
function redactPart(part: string): string {
  if (HAS_CREDENTIAL.test(part)) return part.replace(CREDENTIAL_TEXT, '$1[redacted]');
  if (!part.includes('%')) return part;
  let plain: string;
  try {
    plain = decodeURIComponent(part);
  } catch {
    return part;
  }
  return HAS_CREDENTIAL.test(plain) ? '[redacted]' : part;
}

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).split('/').map(redactPart).join('/');
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let plain = name;
      try {
        plain = decodeURIComponent(name);
      } catch {
        // a name that is not valid percent-encoding is compared as it is
      }
      if (eq >= 0 && CREDENTIAL_PARAMS.has(plain.toLowerCase())) return `${name}=[redacted]`;
      return eq < 0 ? redactPart(pair) : `${redactPart(name)}=${redactPart(pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** The request as the log shows it (Fastify's default fields, the URL redacted). */
export function requestForLog(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}
