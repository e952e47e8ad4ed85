// Races a promise against Ctrl-C, so a command can stop at once and say how to resume.
import { CancelError } from '../errors/index.js';

export function interruptible<T>(promise: Promise<T>, signal: AbortSignal, message: () => string): Promise<T> {
  if (signal.aborted) {
    // The request was already under way: its own rejection (the abort) is expected, not a crash.
    promise.catch(() => undefined);
    return Promise.reject(new CancelError(message()));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelError(message()));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? new CancelError(message()) : e);
      },
    );
  });
}
