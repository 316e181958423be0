import type { Command } from 'commander';
import { CheckbridgeError } from '../errors.js';
import { formatRehearsal, divergedAny, type RehearsalFormat } from '../rehearsal/index.js';
import type { RehearsalReport } from '../store/index.js';
import { apiTarget, request, apiError } from './api-client.js';

interface Globals {
  url?: string;
  apiKey?: string;
  apiKeyFile?: string;
}

/** `checkbridge rehearse`: the running daemon's migration rehearsal, Markdown or JSON; exit 1 when any event diverged (for CI). */
export function registerRehearse(program: Command): void {
  program
    .command('rehearse')
    .description("report what Sensu Go would have done differently with the running daemon's legacy events (exit 1 when any diverged)")
    .option('--format <format>', 'markdown or json', 'markdown')
    .action(async (flags: { format: string }, command: Command) => {
      if (flags.format !== 'markdown' && flags.format !== 'json') throw new CheckbridgeError('CB_CLI_USAGE', '--format must be markdown or json');
      const target = await apiTarget(command.optsWithGlobals() as Globals);
      const reply = await request(target, 'GET', '/api/checkbridge/v1/rehearsal');
      if (reply.status !== 200) throw apiError(reply);
      const report = JSON.parse(reply.text) as RehearsalReport;
      process.stdout.write(formatRehearsal(report, flags.format as RehearsalFormat));
      if (divergedAny(report)) process.exitCode = 1;
    });
}
