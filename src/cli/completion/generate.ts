// Builds the whole command tree (every command of the registry) and renders one shell's script.
import { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { zshScript } from './zsh.js';
import { commandSpec } from './model.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The file each shell's script ships as, under completions/. */
export const SHIPPED_FILES: Record<Shell, string> = { bash: 'bolag.bash', zsh: '_bolag', fish: 'bolag.fish' };

export function completionScript(shell: Shell, root: Command): string {
  const spec = commandSpec(root);
  switch (shell) {
    case 'bash':
      return bashScript(spec);
    case 'zsh':
      return zshScript(spec);
    case 'fish':
      return fishScript(spec);
  }
}
