// The public address of the API as operators type it for `bolag serve --public-url`: the
// service root (https://api.example.se, http://127.0.0.1:8080) or a mount point behind a proxy
// (https://example.se/bolag). Links the server hands out (download_url, files[].url, Location)
// are built on the base URL, so the version prefix is added here once, not by every caller.

/** The version prefix of every API path (spec §9). */
export const API_PREFIX = '/api/public/v1';

export class PublicUrlError extends Error {
  override name = 'PublicUrlError';
}

/**
 * The API base URL (ending in /api/public/v1, no trailing slash) for a --public-url value.
 * Throws PublicUrlError, with a message that says what to type instead, for anything that is
 * not an absolute http(s) URL or that carries credentials, a query string or a fragment.
 */
export function publicApiBase(value: string): string {
  const typed = value.trim();
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new PublicUrlError(`"${value}" is not an absolute URL; give the service's address, e.g. https://api.example.se or https://example.se/bolag.`);
  }
  // Errors show the URL without its password: they land in service logs and CI output.
  const masked = value.replace(`:${url.password}@`, ':***@');
  const shown = url.password === '' ? value : masked !== value ? masked : `${url.protocol}//${url.username}:***@${url.host}${url.pathname}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PublicUrlError(`"${shown}" is not an http or https URL.`);
  // new URL() drops an empty "?" or "#", so look at what was typed too.
  if (url.search !== '' || typed.includes('?')) throw new PublicUrlError(`"${shown}" has a query string; give the address without "?…".`);
  if (url.hash !== '' || typed.includes('#')) throw new PublicUrlError(`"${shown}" has a fragment; give the address without "#…".`);
  if (url.username !== '' || url.password !== '') throw new PublicUrlError(`"${shown}" carries a user name or password; links are handed to clients, so leave them out.`);
  return `${url.origin}${withApiPrefix(url.pathname)}`;
}

/** A URL path ending in the version prefix (added unless there), without a trailing slash. */
export function withApiPrefix(pathname: string): string {
  const path = pathname.replace(/\/+$/, '');
  return path.endsWith(API_PREFIX) ? path : `${path}${API_PREFIX}`;
}

/** The service root of an API base URL: where /docs lives (the base without /api/public/v1). */
export function serviceRoot(apiBase: string): string {
  return apiBase.endsWith(API_PREFIX) ? apiBase.slice(0, -API_PREFIX.length) : apiBase;
}
