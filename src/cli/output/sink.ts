// Writes data to stdout with backpressure, and turns a closed pipe (EPIPE) into
// PipeClosedError so that `bolag search --all | head` ends quietly with exit 0.
import type { Writable } from 'node:stream';
import { PipeClosedError } from '../errors/index.js';

export class OutputSink {
  private closed = false;
  private failure: Error | undefined;
  private waiters: Array<(error?: Error) => void> = [];

  constructor(private readonly stream: Writable) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      this.closed = true;
      this.failure = error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' ? new PipeClosedError() : error;
      for (const wake of this.waiters.splice(0)) wake(this.failure);
    });
  }

  /** Resolves when the chunk is handed over (after a drain when the stream is full). */
  async write(chunk: string | Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    if (chunk.length === 0) return;
    if (this.closed || this.stream.destroyed) throw new PipeClosedError();
    if (this.stream.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const wake = (error?: Error) => (error ? reject(error) : resolve());
      this.waiters.push(wake);
      this.stream.once('drain', () => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve();
      });
    });
    if (this.failure) throw this.failure;
  }
}
