// Where the loader's threads put each chunk of rows (shared by load.ts and rows-thread.ts; the
// thread's own module must never be imported outside its thread: it listens on parentPort).
export function chunkPath(dir: string, k: number): string {
  return `${dir}/chunk-${k}.db`;
}
