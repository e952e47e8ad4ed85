// Database URLs as operators give them, and as we may show them: the password never appears
// in a message, a log line or an error.

/** The URL with its password replaced by `***` (unparsable input is hidden whole after the scheme). */
export function maskDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
    return `${scheme}***`;
  }
}

/** Replaces every occurrence of the URL, and of its password alone, in a message. */
export function maskInText(text: string, url: string): string {
  let out = text.split(url).join(maskDatabaseUrl(url));
  try {
    const password = decodeURIComponent(new URL(url).password);
    if (password.length >= 3) out = out.split(password).join('***');
  } catch {
    // not a URL: nothing more to hide
  }
  return out;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Splits our own `schema` query parameter off a database URL: the store's tables live in that
 * schema (default `public`), so several stores (tests, staging) can share one database.
 */
export function splitSchema(url: string): { connectionString: string; schema: string } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? 'public';
  u.searchParams.delete('schema');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name in the database URL: ${JSON.stringify(schema)} (lower-case letters, digits and _).`);
  return { connectionString: u.toString(), schema };
}
