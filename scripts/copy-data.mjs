// Part of `npm run build`: tsc compiles src/ to dist/src/ but copies no data files, so the
// reference tables (src/reference/data/*.json) are copied beside the compiled modules that
// read them, with the same relative path.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';

const from = new URL('../src/reference/data/', import.meta.url);
const to = new URL('../dist/src/reference/data/', import.meta.url);
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)) {
  if (name.endsWith('.json')) copyFileSync(new URL(name, from), new URL(name, to));
}
