import type { Company } from '../core/company.js';
import type { BolagEvent } from '../core/events.js';
import type { EventType } from '../core/values.js';

/** One record of an import file: the export's shape (`id` optional for new companies), with its line. */
export interface ImportRecord {
  line: number;
  data: Record<string, unknown>;
}

export interface PlannedEvent {
  event: BolagEvent;
  /** The company as webhook filters see it. */
  subject: Record<string, string | string[]>;
}

/**
 * Decides, inside the store's transaction, what a record does to the register: the merged
 * company and the events its differences imply, or null when nothing changes. Throws (with
 * the line number) to abort the whole import.
 */
export type ImportPlanner = (
  record: ImportRecord,
  existing: Company | null,
  id: string | null,
  now: string,
) => { company: Company; events: PlannedEvent[] } | null;

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  events: Partial<Record<EventType, number>>;
}
