// Example commands in --help are wrapped with " \" continuations: pasted into a shell, each must
// still be the command it was written as. A continuation inside quotes would not be (bash keeps
// the indent inside double quotes, and the backslash too inside single quotes).
import { describe, expect, it } from 'vitest';
import { wrapCommand } from '../../src/cli/help-layout.js';

/** What a shell reads from the wrapped text: continuations joined, the prompt gone. */
const pasted = (text: string) => text.replace(/^ {2}\$ /, '').replace(/ \\\n +/g, ' ');

const COMMANDS = [
  'bolag search "Snickeri och Bygg i Västra Götaland AB" --county "Västra Götalands län" --format csv',
  "bolag listen --secret whsec_old,whsec_new --exec 'jq -r .type | sort | uniq -c'",
  'bolag listen --register-url https://abc.tunnel.example.com/ --events company.updated --filter county=01',
  'bolag export create --county 01 --fields name,org_nr,address --idempotency-key monthly-2025-06 --wait',
];

describe('wrapCommand', () => {
  for (const width of [24, 32, 40, 60, 80, 120]) {
    it(`at ${width} columns, pastes as the command it was`, () => {
      for (const c of COMMANDS) {
        const text = wrapCommand(c, width);
        expect(pasted(text)).toBe(c);
        // Every line but one too long to break fits.
        for (const line of text.split('\n')) {
          if (line.length > width) expect(line.trim().replace(/^\$ /, '').replace(/ \\$/, '').split(/ (?=(?:[^"']|"[^"]*"|'[^']*')*$)/)).toHaveLength(1);
        }
      }
    });
  }

  it('never breaks inside quotes, even where the quoted word is wider than the line', () => {
    const text = wrapCommand('bolag search "Snickeri och Bygg i Västra Götaland AB" --limit 5', 30);
    expect(text.split('\n')).toContain('      "Snickeri och Bygg i Västra Götaland AB" \\');
  });

  it('puts a flag and a value too wide for one line on two', () => {
    expect(wrapCommand('bolag listen --forward-to http://localhost:3000/webhooks', 40).split('\n')).toEqual([
      '  $ bolag listen \\',
      '      --forward-to \\',
      '      http://localhost:3000/webhooks',
    ]);
  });
});
