// The reference tables are data, kept as JSON under data/ (one record a line) rather than as
// TypeScript; each table has one typed module that reads it here. The build copies data/
// beside the compiled modules (scripts/copy-data.mjs), so the same relative URL works from
// src/ (tests) and from dist/ (the binary and the published package).
import { readFileSync } from 'node:fs';

/** The rows of data/<name>.json, as the typed module that owns the table declares them. */
export function readTable<Row>(name: string): readonly Row[] {
  return JSON.parse(readFileSync(new URL(`./data/${name}.json`, import.meta.url), 'utf8')) as Row[];
}
