// What commands depend on, handed out lazily: nothing here reads config, opens a socket,
// starts the local register or loads a prompt library until a run function asks for it,
// so `bolag --help` and `bolag <cmd> --help` stay fast and side-effect free.
import type { HttpClient } from './http-client.js';
import type { IOStreams } from './io.js';
import type { ProfileStore } from './config/profile-store.js';
import type { ResolvedConnection } from './config/resolve.js';
import type { Prompter } from './prompter.js';
import type { StoreTarget } from './store-target.js';
import { packageVersion, userAgent } from './version.js';
import { terminalText } from './output/terminal-text.js';

/** The global options of contract §3, valid before or after any command name. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  local?: boolean;
  /** Path of the embedded database (serve, db, admin, local mode). */
  db?: string;
  /** PostgreSQL URL of the service database (serve, db, admin, local mode); env DATABASE_URL. */
  databaseUrl?: string;
  verbose?: boolean;
  quiet?: boolean;
  /** false with --no-color. */
  color?: boolean;
}

export interface Connection {
  baseUrl: string;
  apiKey?: string;
  /** True when this is the in-process local register. */
  local: boolean;
  /** The profile the settings came from, if any. */
  profile?: string;
}

export interface Factory {
  readonly version: string;
  readonly io: IOStreams;
  readonly env: NodeJS.ProcessEnv;
  /** The parsed global options (read at run time, after commander has parsed argv). */
  globals(): GlobalOptions;
  /** Profiles on disk (conf). */
  config(): Promise<ProfileStore>;
  /** Where requests go: flag > env > profile > the local register (started on demand). */
  connection(): Promise<Connection>;
  /** The database of the commands that open the register: --database-url > --db > DATABASE_URL > the local register. */
  storeTarget(): Promise<StoreTarget>;
  /** The HTTP client for connection(); one per process. */
  httpClient(): Promise<HttpClient>;
  /** Builds a client for an explicit base URL and key (login checks them before saving). */
  httpClientFor(baseUrl: string, apiKey?: string): Promise<HttpClient>;
  prompter(why?: string): Promise<Prompter>;
  /** Aborted on Ctrl-C; long-running commands listen and throw CancelError with a resume hint. */
  readonly interrupt: AbortSignal;
  /** Writes a notice to stderr unless --quiet. */
  notice(line: string): void;
  /** Registers cleanup that main runs before exiting (closing servers and sockets). */
  defer(cleanup: () => Promise<void> | void): void;
  /**
   * Work already taken on that Ctrl-C waits for past its few seconds of grace (deliveries
   * `listen` answered and has still to print, forward or run; the webhook it deletes after).
   * A second Ctrl-C does not wait.
   */
  finishing(work: Promise<unknown>): void;
  dispose(): Promise<void>;
}

export interface FactoryInit {
  io: IOStreams;
  env?: NodeJS.ProcessEnv;
  globals: () => GlobalOptions;
  interrupt?: AbortSignal;
  /** Where finishing() reports its work (main). */
  onFinishing?: (work: Promise<unknown>) => void;
}

export function createFactory(init: FactoryInit): Factory {
  const env = init.env ?? process.env;
  const cleanups: Array<() => Promise<void> | void> = [];
  const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= make());
  };

  const config = once(async () => (await import('./config/profile-store.js')).openProfileStore(undefined));

  const resolved = once(async (): Promise<ResolvedConnection> => {
    const { resolveConnection } = await import('./config/resolve.js');
    const g = init.globals();
    return resolveConnection({ baseUrl: g.baseUrl, apiKey: g.apiKey, profile: g.profile, local: g.local }, env, config);
  });

  const connection = once(async (): Promise<Connection> => {
    const r = await resolved();
    if (r.kind === 'remote') return { baseUrl: r.baseUrl, apiKey: r.apiKey, local: false, profile: r.profile };
    const { startLocal } = await import('./local/start-local.js');
    if (r.reason === 'unconfigured' && r.ignoredKey) {
      const given = r.ignoredKey === 'flag' ? 'the --api-key given' : 'BOLAG_API_KEY';
      init.io.stderr.write(`Warning: no service address is configured (--base-url, BOLAG_BASE_URL or a profile), so the local register answers and ${given} is not used.\n`);
    }
    const local = await startLocal(init.io, { quiet: init.globals().quiet, env, target: await storeTarget() });
    cleanups.push(() => local.close());
    return { baseUrl: local.baseUrl, apiKey: local.apiKey, local: true };
  });

  const storeTarget = async (): Promise<StoreTarget> => (await import('./store-target.js')).resolveStoreTarget(init.globals(), env);

  // A notice quotes ids, messages and URLs a server or a sender chose: shown, never obeyed.
  const notice = (line: string) => {
    if (!init.globals().quiet) init.io.stderr.write(`${terminalText(line)}\n`);
  };

  const httpClientFor = async (baseUrl: string, apiKey?: string): Promise<HttpClient> => {
    const { HttpClient } = await import('./http-client.js');
    const verbose = init.globals().verbose;
    const client = new HttpClient({
      baseUrl,
      apiKey,
      userAgent: userAgent(),
      timeoutMs: numberFromEnv(env.BOLAG_TIMEOUT_MS),
      log: verbose ? (line) => init.io.stderr.write(`${line}\n`) : undefined,
      // A search --all that stops for a minute says why (--verbose says it for every retry).
      onWait: verbose
        ? undefined
        : (status, ms, said) => {
            const seconds = Math.ceil(ms / 1000);
            if (said) return notice(`HTTP ${status}: ${said.replace(/\.?$/, '.')} Going on in ${seconds} s…`);
            notice(`${status === 429 ? 'The service is limiting this key\'s requests (HTTP 429)' : 'The service is briefly unavailable (HTTP 503)'}; going on in ${seconds} s…`);
          },
    });
    cleanups.push(() => client.close());
    return client;
  };

  const httpClient = once(async () => {
    const c = await connection();
    return httpClientFor(c.baseUrl, c.apiKey);
  });

  const interrupt = init.interrupt ?? new AbortController().signal;

  return {
    version: packageVersion(),
    io: init.io,
    env,
    globals: init.globals,
    config,
    connection,
    storeTarget,
    httpClient,
    httpClientFor,
    async prompter(why?: string) {
      const { createPrompter } = await import('./prompter.js');
      return createPrompter(init.io, why);
    },
    interrupt,
    notice,
    defer(cleanup) {
      cleanups.push(cleanup);
    },
    finishing(work) {
      init.onFinishing?.(work);
    },
    async dispose() {
      // Clients first, then the servers they talk to.
      for (const cleanup of cleanups.splice(0).reverse()) {
        try {
          await cleanup();
        } catch {
          // best effort: we are exiting anyway
        }
      }
    },
  };
}

function numberFromEnv(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : undefined;
}
