// `--help` of every command and subcommand, from the built binary, at 40, 60 and 120 columns: no
// line wider than the terminal, and no line break that wrapping did not make (a hard newline
// in the middle of a sentence shows as a line that ends while the next word would still fit).
import { describe, expect, it } from 'vitest';
import { bolag, cleanEnv } from './helpers.js';
import { ensureBuilt } from '../exports/built.js';

const WIDTHS = [40, 60, 120] as const;

async function help(path: readonly string[], columns: number): Promise<string> {
  const r = await bolag([...path, '--help'], { env: cleanEnv({ COLUMNS: String(columns) }) });
  expect(r.exitCode, `${path.join(' ')} --help`).toBe(0);
  return String(r.stdout);
}

/** Subcommand names listed under "Commands:" (rows at the item indent). */
function subcommands(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === 'Commands:');
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || !line.startsWith(' ')) break;
    const m = /^ {2}([a-z][\w-]*)/.exec(line);
    if (m && m[1] !== 'help') names.push(m[1]);
  }
  return names;
}

const indentOf = (l: string) => l.length - l.trimStart().length;
/** A two-column row: a term, two or more spaces, a description. */
const isRow = (l: string) => / {2,}\S/.test(l.trimStart());
const isNewItem = (l: string) => /^\s*(-|\$ |\[|<)/.test(l);

/** Breaks that wrapping at `width` would not have made. */
export function hardBreaks(text: string, width: number): string[] {
  const lines = text.split('\n');
  const bad: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const [a, b] = [lines[i], lines[i + 1]];
    if (a.trim() === '' || b.trim() === '') continue;
    if (/[.:!?]$|\\$/.test(a)) continue; // a sentence, a heading or a shell continuation ends here
    const continuation = indentOf(b) > indentOf(a) && !isNewItem(b) && isRow(a); // a description's next line
    const prose = indentOf(b) === indentOf(a) && !isRow(a) && !isNewItem(b);
    if (!continuation && !prose) continue;
    const nextWord = b.trimStart().split(' ')[0];
    if (a.length + 1 + nextWord.length <= width) bad.push(`${JSON.stringify(a)} / ${JSON.stringify(b)}`);
  }
  return bad;
}

/** A line that is one word (a path, a URL), perhaps with a shell continuation: no place to break it. */
const unbreakable = (l: string) => !/ /.test(l.trim().replace(/ \\$/, ''));

describe('help text wraps cleanly', () => {
  it('the checker sees a hard break and accepts a wrapped paragraph', () => {
    expect(hardBreaks('Listen for deliveries and verify\ntheir signatures.', 60)).toHaveLength(1);
    expect(hardBreaks('Listen for deliveries and verify their signatures with one or\nmore secrets.', 60)).toEqual([]);
    expect(hardBreaks('  --port <port>  Port to listen on, and a long\n                 description', 60)).toHaveLength(1);
  });

  for (const width of WIDTHS) {
    it(`at ${width} columns, for every command and subcommand`, async () => {
      await ensureBuilt();
      const seen: string[] = [];
      const problems: string[] = [];
      const queue: string[][] = [[]];
      while (queue.length > 0) {
        const batch = queue.splice(0, 4);
        const texts = await Promise.all(batch.map((path) => help(path, width)));
        for (const [k, text] of texts.entries()) {
          const path = batch[k];
          seen.push(path.join(' ') || '(root)');
          const where = `bolag ${path.join(' ')} --help at ${width} columns`;
          for (const l of text.split('\n')) if (l.length > width && !unbreakable(l)) problems.push(`${where}: ${l.length} wide: ${JSON.stringify(l)}`);
          for (const b of hardBreaks(text, width)) problems.push(`${where}: hard break: ${b}`);
          // Every help says what the command does, in the paragraph after its usage (webhooks create
          // and others began with their options until 2026-11-29).
          const afterUsage = text.split('\n\n')[1] ?? '';
          if (!/^[A-Z]/.test(afterUsage) || /^(Options|Arguments|Commands|Global Options):\n/.test(afterUsage)) problems.push(`${where}: no description under the usage`);
          for (const sub of subcommands(text)) queue.push([...path, sub]);
        }
      }
      expect(problems).toEqual([]);
      expect(seen).toEqual(expect.arrayContaining(['(root)', 'listen', 'export create', 'webhooks create', 'admin keys create', 'serve']));
    }, 240_000);
  }
});
