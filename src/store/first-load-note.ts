// A source's first load records no events: building the register is not a change anyone
// subscribed to. One that stopped half-way (Ctrl-C, a kill, a crash) left rows that list the
// source, and the run that finishes it was then taken for a weekly update: every company the
// first run had not reached became a company.created (or, onto the other source's register, a
// company.updated) webhook, up to millions of them. So a batch-by-batch first load notes itself
// in `settings` before its first row and clears the note once it has finished; an import of the
// source that finds the note finishes the first load, as quietly.

/** The settings row of an unfinished first load of the source with this SOURCE_BITS bit. */
export function firstLoadNote(sourceBit: number): string {
  return `first_load_unfinished.${sourceBit}`;
}
