// `npm run bench -- <name> [args…]`: runs the `run(args)` export of bench/<name>.ts (compiled to
// dist/bench/<name>.js). Each benchmark is its own module, so adding one needs no change here.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

interface BenchModule {
  run(args: string[]): unknown;
}

const HERE = dirname(fileURLToPath(import.meta.url));

function available(): string[] {
  return readdirSync(HERE)
    .filter((f) => f.endsWith('.js') && f !== 'run.js')
    .map((f) => f.slice(0, -3))
    .sort();
}

function usage(): string {
  return `usage: npm run bench -- <name> [args…]\nbenchmarks: ${available().join(', ') || '(none built)'}`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !available().includes(name)) {
    console.error(`Unknown benchmark "${name}".\n${usage()}`);
    return 2;
  }
  const mod = (await import(`./${name}.js`)) as Partial<BenchModule>;
  if (typeof mod.run !== 'function') {
    console.error(`bench/${name}.ts has no exported run() function.`);
    return 2;
  }
  await mod.run(args);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  },
);
