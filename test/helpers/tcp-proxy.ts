// A loopback TCP proxy between a server under test and its PostgreSQL, so that a test can take
// the database away from that server alone (other test files and other engineers share the
// machine's PostgreSQL, which must keep running): cut() resets every open connection and refuses
// new ones, as a restarting database does; restore() lets connections through again.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Resets every open connection but keeps taking new ones (a link that flaps). */
  reset(): void;
  /**
   * Resets what is open, then takes new connections and never answers on them (a database host
   * that is gone: connects hang instead of being refused), until restore().
   */
  blackhole(): void;
  /** Connections accepted so far (to see that the server really went through the proxy). */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  const held = new Set<net.Socket>();
  let swallowing = false;
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    if (swallowing) {
      held.add(client);
      client.on('error', () => undefined).on('close', () => held.delete(client));
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  let listening = true;

  // Reset (not close) what is open: the peers see ECONNRESET, as when the database dies.
  const resetOpen = () => {
    for (const s of open) s.resetAndDestroy();
    open.clear();
  };
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      resetOpen();
    });

  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    get accepted() {
      return accepted;
    },
    cut: stopListening,
    reset: resetOpen,
    blackhole() {
      swallowing = true;
      resetOpen();
    },
    async restore() {
      swallowing = false;
      for (const s of held) s.destroy();
      held.clear();
      if (listening) return;
      await listen(port);
      listening = true;
    },
    close: stopListening,
  };
}
