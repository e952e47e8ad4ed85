// `bolag serve` on a port another process holds: said before the register is created or
// migrated (seconds to minutes on a first start), in the words of --port, not as the bare
// "listen EADDRINUSE" of the server's bind at the end of its start.
import { createServer } from 'node:net';
import { UsageError } from '../../errors/index.js';

export async function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') reject(new UsageError(`Port ${port} on ${host} is in use; choose another with --port (0 picks a free one).`, { flag: '--port' }));
      // Anything else (an address this machine does not have, a privileged port) is the bind's own to report.
      else resolve();
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
