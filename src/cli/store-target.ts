// Which database a command that opens the register works on, decided in one place for every
// such command (serve, db, admin, local mode): --database-url, else --db, else DATABASE_URL,
// else the local register under BOLAG_HOME. A URL is only ever shown with its password masked.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { bolagHome, registerDbPath } from '../local/paths.js';
import { isPostgresUrl, maskDatabaseUrl, splitSchema } from '../store/postgres/url.js';
import type { StoreLocation } from '../store/store.js';
import { UsageError } from './errors/index.js';
import type { GlobalOptions } from './factory.js';

export interface StoreTarget {
  location: StoreLocation;
  /** For messages: the file's path, or `PostgreSQL <url with the password masked>`. */
  label: string;
  /** Where the local mode keeps the key of its local account for this database. */
  localKeyFile: string;
}

export function resolveStoreTarget(g: GlobalOptions, env: NodeJS.ProcessEnv): StoreTarget {
  if (g.databaseUrl && g.db) throw new UsageError('Give either --db or --database-url, not both.', { flag: '--database-url' });
  // A URL in --db was taken for a file's path: a SQLite register made under ./postgres:/…,
  // imports reported done there, and the password in the path and in messages.
  if (g.db && /^[a-z][a-z0-9+.-]*:\/\//i.test(g.db)) {
    throw new UsageError(`--db takes a SQLite file; ${maskDatabaseUrl(g.db)} is a URL.`, {
      flag: '--db',
      hint: isPostgresUrl(g.db) ? 'give a PostgreSQL database with --database-url' : undefined,
    });
  }
  const url = g.databaseUrl ?? (g.db ? undefined : env.DATABASE_URL || undefined);
  if (url) {
    if (!isPostgresUrl(url) || !URL.canParse(url)) {
      throw new UsageError(`Invalid ${g.databaseUrl ? '--database-url' : 'DATABASE_URL'}: expected postgres://user@host:port/database, got ${maskDatabaseUrl(url)}.`, {
        flag: '--database-url',
      });
    }
    // The schema's name checked here, where a bad one is a usage error (exit 2), not at the connection (1).
    try {
      splitSchema(url);
    } catch (e) {
      throw new UsageError(`${(e as Error).message.replace(/\.$/, '')}; e.g. ?schema=bolag_staging.`, { flag: '--database-url' });
    }
    const id = createHash('sha256').update(url).digest('hex').slice(0, 12);
    return { location: { databaseUrl: url }, label: `PostgreSQL ${maskDatabaseUrl(url)}`, localKeyFile: join(bolagHome(env), `local-key.pg-${id}`) };
  }
  if (g.db) return { location: { dbPath: g.db }, label: g.db, localKeyFile: `${g.db}.local-key` };
  const path = registerDbPath(env);
  return { location: { dbPath: path }, label: path, localKeyFile: join(bolagHome(env), 'local-key') };
}
