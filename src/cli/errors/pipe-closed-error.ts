// The reader of stdout went away (`bolag search --all | head`): not a failure, end quietly (exit 0).
export class PipeClosedError extends Error {
  constructor() {
    super('stdout was closed');
    this.name = 'PipeClosedError';
  }
}
