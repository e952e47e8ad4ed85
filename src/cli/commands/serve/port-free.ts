// `bolag serve` on a port another process holds or this user may not bind, or a --host this machine does not have: said
// before the register is created or migrated (seconds to minutes on a first start), in the words
// of --port and --host, not as the bare "listen EADDRINUSE" of the server's bind at the end of
// its start. Port 0 is probed too: it says whether the host is one to bind to.
import { createServer } from 'node:net';
import { UsageError } from '../../errors/index.js';

/** Codes of a --host that names no address of this machine (or none at all). */
const NO_SUCH_HOST = new Set(['ENOTFOUND', 'EADDRNOTAVAIL', 'EAI_AGAIN', 'EAI_NONAME']);

export async function ensurePortFree(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') reject(new UsageError(`Port ${port} on ${host} is in use; choose another with --port (0 picks a free one).`, { flag: '--port' }));
      else if (NO_SUCH_HOST.has(e.code ?? '')) {
        reject(new UsageError(`--host ${host} is no address of this machine (${e.code}); give one it has, e.g. 127.0.0.1 or 0.0.0.0 for all.`, { flag: '--host' }));
      }
      // A port this user may not bind (below 1024): said now too. Found at the bind, after a first
      // start had made the register and its key, the key was never shown and no later start
      // shows it (found by a review, 2026-11-29).
      else if (e.code === 'EACCES' || e.code === 'EPERM') {
        reject(new UsageError(`Port ${port} on ${host} may not be used by this user (${e.code}; ports below 1024 need privileges); choose another with --port, e.g. 8080, behind a proxy.`, { flag: '--port' }));
      }
      // Anything else is the bind's own to report.
      else resolve();
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
