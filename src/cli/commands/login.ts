// `bolag login`: asks for the base URL and API key (on a terminal), checks them with a real
// request, and saves them in a profile (--profile, default "default").
import { Command } from 'commander';
import type { Factory } from '../factory.js';
import type { LoginOptions } from './login/options.js';
import { helpNotes } from '../help-layout.js';

export function buildLoginCommand(f: Factory, runF?: (opts: LoginOptions) => Promise<void>): Command {
  return new Command('login')
    .summary('Save a base URL and API key in a profile')
    .description(
      'Ask for the service base URL and an API key, check them with a real request, and save them in a profile. ' +
        'Prompts need a terminal; without one, pass --base-url and --api-key.',
    )
    .addHelpText('after', helpNotes({ examples: ['bolag login', 'bolag login --profile prod --base-url https://api.example.se --api-key "$KEY"'] }))
    .action(async () => {
      const g = f.globals();
      const opts: LoginOptions = { factory: f, baseUrl: g.baseUrl, apiKey: g.apiKey, profile: g.profile ?? f.env.BOLAG_PROFILE };
      if (runF) return runF(opts);
      const { loginRun } = await import('./login/run.js');
      return loginRun(opts);
    });
}
