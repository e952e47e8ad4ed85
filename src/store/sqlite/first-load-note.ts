// Whether an import is a source's first load (no company lists the source yet, or a first load
// of it stopped half-way: ../import-settings.ts), and the note such a load keeps while it runs.
import { firstLoadNote } from '../import-settings.js';
import type { Db } from './database.js';

export class FirstLoadNote {
  private readonly name: string | null;

  /** `sourceBit`: ImportOptions.firstLoadOf (none: never a first load). */
  constructor(
    private readonly db: Db,
    private readonly sourceBit: number | undefined,
  ) {
    this.name = sourceBit === undefined ? null : firstLoadNote(sourceBit);
  }

  /** No company lists the source, or its first load stopped half-way. */
  listsNone(): boolean {
    if (this.name === null) return false;
    if (this.db.prepare('SELECT 1 FROM settings WHERE name = ?').get(this.name) !== undefined) return true;
    return this.db.prepare('SELECT 1 FROM companies WHERE (sources & ?) != 0 LIMIT 1').get(this.sourceBit) === undefined;
  }

  /** Before a batch-by-batch first load's first row. */
  begin(): void {
    if (this.name !== null) this.db.prepare("INSERT INTO settings (name, value) VALUES (?, 'yes') ON CONFLICT (name) DO NOTHING").run(this.name);
  }

  /** Once the first load has finished, indexes and all: the next import of the source is a weekly one. */
  end(): void {
    if (this.name !== null) this.db.prepare('DELETE FROM settings WHERE name = ?').run(this.name);
  }
}
