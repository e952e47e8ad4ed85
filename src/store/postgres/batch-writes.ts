// A batch's writes on an import's one connection (company-import.ts), not awaited where the
// importer has other work: statements on a connection run in the order they are queued, so
// writes sent now run on the server while the importer settles or plans the next batch.
//
// A weekly batch's writes are held (`hold`) and sent right behind the next batch's read, so the
// server writes them while that batch is planned. Each side used to wait for the other: the
// server idle in its transaction a quarter of a week's import. That read does not see them, so a
// batch that reads an org nr they write sends them first (`sendIfWriting`) and reads once they
// are done.

/** The writes of one batch: its statements, queued one after the other. */
export type SendWrites = () => Promise<void>;

export class BatchWrites {
  /** Writes sent and still running on the server. */
  private sending: Promise<void> | null = null;
  /** A batch's writes, held until the next batch's read is queued, with the org nrs they write. */
  private held: { send: SendWrites; keys: Set<string> } | null = null;

  /** Whether writes are on their way (the event loop must turn for their bytes to reach the socket). */
  get inFlight(): boolean {
    return this.sending !== null;
  }

  /** Waits for the writes sent so far; fails with their error. */
  async done(): Promise<void> {
    const pending = this.sending;
    this.sending = null;
    if (pending) await pending;
  }

  /** Sends these writes once those on their way are done (a first load's COPY, our JSONL). */
  async sendAfterDone(send: SendWrites): Promise<void> {
    await this.done();
    this.start(send);
  }

  /** Holds a batch's writes until sendHeld (behind the next read, or before a commit). */
  hold(send: SendWrites, keys: Set<string>): void {
    this.held = { send, keys };
  }

  /** Sends the held writes, if any, behind those on their way. */
  sendHeld(): void {
    if (!this.held) return;
    const { send } = this.held;
    this.held = null;
    // Behind writes still on their way: a batch's statements queue one after the other, and
    // another batch's would land between them (its events before the earlier batch's).
    const before = this.sending;
    if (before) {
      this.sending = before.then(send);
      this.sending.catch(() => undefined);
    } else {
      this.start(send);
    }
  }

  /** Sends the held writes when they write one of these org nrs: a read of them must see them. */
  sendIfWriting(keys: readonly string[]): void {
    const writing = this.held?.keys;
    if (writing && keys.some((k) => writing.has(k))) this.sendHeld();
  }

  /** Forgets held writes (never sent: a new transaction, or the one they belonged to failed). */
  drop(): void {
    this.held = null;
  }

  /**
   * Before a failed transaction is rolled back: held writes forgotten, those on their way waited
   * for, their errors ignored (the failure that ends the transaction is the one to tell). A batch
   * sends its statements one after the other, so a ROLLBACK queued now would land between two of
   * them, and those after it would run on their own and stay.
   */
  async abandon(): Promise<void> {
    this.drop();
    await this.done().catch(() => undefined);
  }

  /** Runs a transaction's work; should it fail, abandons its writes before the error goes on to the ROLLBACK. */
  async guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (e) {
      await this.abandon();
      throw e;
    }
  }

  private start(send: SendWrites): void {
    this.sending = send();
    // Awaited by done(); unobserved until then.
    this.sending.catch(() => undefined);
  }
}
