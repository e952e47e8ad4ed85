// The layering rule of the README ("How the parts fit"), checked on the source: arrows point
// down, from the faces to the domain, to src/app, to storage, core and reference data; and a
// command's own folder (commands/<name>/…) never imports its command file (commands/<name>.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Top-level folders of src/ by layer: an import may point to its own folder or a lower layer. */
const LAYER: Record<string, number> = {
  cli: 5,
  server: 5,
  local: 5,
  exports: 4,
  webhooks: 4,
  import: 4,
  retention: 4,
  app: 3,
  store: 2,
  // The register generator: pure functions over core and reference data, under the store (the
  // SQLite loader generates rows on its own threads); seeding a store is src/app/seed-register.ts.
  seed: 1.5,
  core: 1,
  reference: 0,
};
/** Same-layer arrows that are part of the design: the CLI starts the server and the local register. */
const ALLOWED_SIDEWAYS = new Set(['cli→server', 'cli→local', 'local→server']);

interface Import {
  from: string; // src-relative path of the importing file
  to: string; // src-relative path of the imported module (.js as written)
  line: number;
}

/** Every relative import of a file: static, type-only, re-exports and dynamic import(). */
function importsOf(file: string, text: string): Import[] {
  const out: Import[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm;
  for (const m of text.matchAll(pattern)) {
    const line = text.slice(0, m.index).split('\n').length;
    out.push({ from: file, to: posix.normalize(posix.join(posix.dirname(file), m[1])), line });
  }
  return out;
}

function violations(imports: readonly Import[]): string[] {
  const bad: string[] = [];
  for (const i of imports) {
    const a = i.from.split('/')[0];
    const b = i.to.split('/')[0];
    const where = `src/${i.from}:${i.line} imports src/${i.to}`;
    if (a !== b) {
      if (!(a in LAYER) || !(b in LAYER)) bad.push(`${where}: src/${a in LAYER ? b : a}/ has no layer in test/architecture.test.ts`);
      else if (LAYER[b] > LAYER[a] || (LAYER[b] === LAYER[a] && !ALLOWED_SIDEWAYS.has(`${a}→${b}`))) bad.push(`${where}: ${a} may not import ${b}`);
    }
    // cli/commands/<name>/… must not import cli/commands/<name>.ts
    const own = /^cli\/commands\/([^/]+)\//.exec(i.from);
    if (own && i.to === `cli/commands/${own[1]}.js`) bad.push(`${where}: a command's folder imports its command file (put shared types in commands/${own[1]}/options.ts)`);
  }
  return bad;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('architecture', () => {
  const src = join(ROOT, 'src');
  const imports = sourceFiles(src).flatMap((f) => importsOf(relative(src, f).split('\\').join('/'), readFileSync(f, 'utf8')));

  it('reads the imports of the source tree', () => {
    expect(imports.length).toBeGreaterThan(300);
    expect(imports).toContainEqual(expect.objectContaining({ from: 'cli/main.ts', to: 'cli/program.js' }));
  });

  it('arrows point down: faces → domain → app → store, core → reference; commands never import back', () => {
    expect(violations(imports)).toEqual([]);
  });

  it('catches the arrows it forbids', () => {
    const bad = [
      ...importsOf('exports/worker.ts', "import type { ServerContext } from '../server/app.js';"),
      ...importsOf('store/x.ts', "const m = await import('../cli/main.js');"),
      ...importsOf('app/context.ts', "export { x } from '../webhooks/sender.js';"),
      ...importsOf('cli/commands/search/run.ts', "import type { SearchOptions } from '../search.js';"),
    ];
    expect(violations(bad)).toHaveLength(4);
    expect(violations(importsOf('exports/worker.ts', "import { x } from '../app/worker.js';"))).toEqual([]);
  });
});
