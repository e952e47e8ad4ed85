/** A bad record: the import stops, the database stays as it was, and the user sees the line. */
export class ImportError extends Error {
  constructor(
    readonly line: number,
    /** What is wrong with the line, without its number (so the error can be made again elsewhere). */
    readonly detail: string,
  ) {
    super(`line ${line}: ${detail}`);
    this.name = 'ImportError';
  }
}
