// Event ids already handled, bounded: the oldest is forgotten once `capacity` is reached,
// so a listener that runs for days keeps constant memory.
export class SeenIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  /** True when the id is new (and remembers it); false for a duplicate. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      // A Set iterates in insertion order: the first entry is the oldest.
      const oldest = this.ids.values().next().value as string;
      this.ids.delete(oldest);
    }
    return true;
  }

  get size(): number {
    return this.ids.size;
  }
}
