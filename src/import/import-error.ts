/** A bad record: the import stops, the database stays as it was, and the user sees the line. */
export class ImportError extends Error {
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'ImportError';
  }
}
