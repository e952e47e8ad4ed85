// Writes data to stdout with backpressure, and turns a closed pipe (EPIPE) into
// PipeClosedError so that `bolag search --all | head` ends quietly with exit 0.
import type { Writable } from 'node:stream';
import { PipeClosedError } from '../errors/index.js';
import { jsonForTerminal, terminalText } from './terminal-text.js';

/**
 * What the sink writes, when a terminal shows it: JSON (escaped where a terminal would obey,
 * still the same JSON) or text such as CSV (shown as terminal-text.ts shows text). Tables are
 * made safe cell by cell (they carry bold of their own); a pipe or file gets the bytes as they are.
 */
export type TerminalView = 'json' | 'text';

/** The view of a --format on stdout: none in a pipe or file, nor for a table or pretty lines (safe cell by cell). */
export function terminalView(format: string | undefined, stdoutIsTTY: boolean): TerminalView | undefined {
  if (!stdoutIsTTY) return undefined;
  if (format === 'json' || format === 'jsonl') return 'json';
  return format === 'csv' ? 'text' : undefined;
}

export class OutputSink {
  private closed = false;
  private failure: Error | undefined;
  private waiters: Array<(error?: Error) => void> = [];

  constructor(
    private readonly stream: Writable,
    private readonly view?: TerminalView,
  ) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      this.closed = true;
      this.failure = error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' ? new PipeClosedError() : error;
      for (const wake of this.waiters.splice(0)) wake(this.failure);
    });
  }

  /** Resolves when the chunk is handed over (after a drain when the stream is full). */
  async write(chunk: string | Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.view !== undefined) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      chunk = this.view === 'json' ? jsonForTerminal(text) : terminalText(text, { lines: true });
    }
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
