// What a background worker is to whoever starts it (the server, tests, benches): something
// that reads durable work from the store and can be stopped.
import type { ServerContext } from './context.js';

export interface RunningWorker {
  stop(): Promise<void>;
}

export type WorkerFactory = (ctx: ServerContext) => RunningWorker;
