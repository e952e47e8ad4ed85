// A server on the bench's register that delivers every company event to a local receiver over
// HTTP, so imports can be measured while deliveries run on the same database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueKey } from '../../src/server/api-keys.js';
import { startServer } from '../../src/server/start.js';
import { openStore } from '../../src/store/open-store.js';
import type { StoreLocation } from '../../src/store/store.js';
import { type ProbeFigures, startSearchProbe } from './search-probe.js';

export interface DeliveringServer {
  delivered(): number;
  /** Searches answered (and how fast) and the event loop's longest hold-up since the last call. */
  probe(): ProbeFigures;
  close(): Promise<void>;
}

export async function startDeliveringServer(location: StoreLocation): Promise<DeliveringServer> {
  let delivered = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const server = await startServer({ port: 0, ...location, allowInsecureWebhooks: true, rateLimit: { max: 0, windowMs: 60_000 }, logger: false });
  const store = await openStore(location);
  const { key } = await issueKey(store, { account: 'bench-import', plan: 'pro', scopes: ['webhooks:manage', 'companies:read'] });
  await store.close();
  const res = await fetch(`${server.url}/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['company.created', 'company.updated', 'company.status_changed'] }),
  });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${await res.text()}`);
  const searches = startSearchProbe(server.url, key);
  return {
    delivered: () => delivered,
    probe: () => searches.take(),
    async close() {
      await searches.stop();
      await server.close();
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    },
  };
}
