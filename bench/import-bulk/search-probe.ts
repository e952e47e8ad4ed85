// Searches a server every 50 ms and watches its process's event loop, so the import steps beside
// a server say how the server answered meanwhile, not only how many webhooks it delivered.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const QUERIES = ['bygg', 'konsult', 'restaurang', 'fastighet', 'transport'];
const EVERY_MS = 50;

export interface ProbeFigures {
  searches: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The longest the process's event loop was held up. */
  loopDelayMaxMs: number;
}

export interface SearchProbe {
  /** The figures since the last take (or the start), and a fresh start. */
  take(): ProbeFigures;
  stop(): Promise<void>;
}

export function startSearchProbe(url: string, key: string): SearchProbe {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let took: number[] = [];
  let failed = 0;
  let stopped = false;
  const run = (async () => {
    for (let i = 0; !stopped; i++) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/companies?q=${QUERIES[i % QUERIES.length]}&limit=10`, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      } catch {
        failed++;
      }
      took.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
  })();
  return {
    take() {
      const sorted = took.sort((a, b) => a - b);
      const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
      const figures = { searches: sorted.length, failed, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1), loopDelayMaxMs: Math.round(loop.max / 1e6) };
      took = [];
      failed = 0;
      loop.reset();
      return figures;
    },
    async stop() {
      stopped = true;
      await run;
      loop.disable();
    },
  };
}
