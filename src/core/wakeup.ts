// One waiter, woken by the next notify: a loop that awaits a thread's next message (or its
// turn to go on) sleeps on it, and each message handler notifies.
export class Wakeup {
  private wake: (() => void) | null = null;

  /** Resolves at the next notify. */
  wait(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
