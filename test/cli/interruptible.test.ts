// interruptible(): a command's wait for a request, cut short by Ctrl-C. A Ctrl-C that comes
// before the wait begins (the request already sent) must not leave the request's own rejection
// unhandled: Node then ended the command with exit 1 and a stack trace instead of 130.
import { describe, expect, it } from 'vitest';
import { CancelError } from '../../src/cli/errors/index.js';
import { interruptible } from '../../src/cli/paging/interruptible.js';

describe('interruptible', () => {
  it('after Ctrl-C, refuses at once and takes the request\'s later rejection as handled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const interrupt = new AbortController();
      interrupt.abort(new Error('interrupted'));
      const request = new Promise((_, reject) => setTimeout(() => reject(interrupt.signal.reason), 10));
      await expect(interruptible(request, interrupt.signal, () => 'Interrupted.')).rejects.toBeInstanceOf(CancelError);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('Ctrl-C during the wait is a CancelError with the message; a result before it passes through', async () => {
    const interrupt = new AbortController();
    expect(await interruptible(Promise.resolve(7), interrupt.signal, () => 'x')).toBe(7);
    const pending = interruptible(new Promise(() => undefined), interrupt.signal, () => 'Interrupted; resume with: --cursor abc');
    interrupt.abort();
    await expect(pending).rejects.toMatchObject({ name: 'CancelError', message: 'Interrupted; resume with: --cursor abc' });
  });
});
