// The buffers of line batches (classify-lines.ts), used again once the import gives them back:
// a weekly file is about 1,500 batches of half a megabyte, and buffers left to the importing
// thread's collector waited for it by tens of megabytes (the importer's peak memory).
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];

  /** Buffers kept for use again: the batches in flight and a few more. */
  constructor(private readonly keep = 8) {}

  /** A buffer of at least `bytes`: one given back, or a new one with room to spare. */
  take(bytes: number): ArrayBuffer {
    const at = this.free.findIndex((b) => b.byteLength >= bytes);
    if (at >= 0) return this.free.splice(at, 1)[0];
    return new ArrayBuffer(Math.ceil(bytes * 1.25));
  }

  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength > 0 && this.free.length < this.keep) this.free.push(buffer);
  }
}
