// In-process wake-ups, so a worker idles on a timer but reacts at once to work made in the
// same process (a test delivery, a fan-out). Work made by other processes is found by polling.
// Also the notice that a webhook changed, for the rows the delivery worker keeps a moment.

export class Wakeup {
  private waiters: (() => void)[] = [];
  private pending = false;

  wake(): void {
    this.pending = true;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves on the next wake() (or at once if one came since the last wait), or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      // On the next turn of the event loop, not as a microtask: a worker that keeps being woken
      // (each finished delivery wakes it) must still let the process's requests in between.
      return new Promise((resolve) => setImmediate(resolve));
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.waiters = self.waiters.filter((w) => w !== done);
        self.pending = false;
        resolve();
      }
      this.waiters.push(done);
    });
  }
}

/** Who hears that a webhook was changed or deleted through this process. */
export class WebhookChanges {
  private readonly listeners = new Set<(id: string) => void>();

  notify(id: string): void {
    for (const l of this.listeners) l(id);
  }

  /** Returns the unsubscribe. */
  subscribe(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export interface WebhookSignals {
  fanout: Wakeup;
  delivery: Wakeup;
  changes: WebhookChanges;
}

const byStore = new WeakMap<object, WebhookSignals>();

/** The wake-ups and change notices shared by the routes and workers over one store. */
export function webhookSignals(store: object): WebhookSignals {
  let s = byStore.get(store);
  if (!s) byStore.set(store, (s = { fanout: new Wakeup(), delivery: new Wakeup(), changes: new WebhookChanges() }));
  return s;
}
