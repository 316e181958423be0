import type { Command } from 'commander';
import { definitionOf } from '../config/index.js';
import { runCheck } from '../execute/index.js';
import { spawnCommand } from '../execute/index.js';
import { CheckbridgeError } from '../errors.js';
import { withSourceOptions, loadValidOrReport, type SourceFlags } from './sources.js';
import { defaultCheckTimeoutOf } from '../config/index.js';
import { systemClock } from '../schedule/index.js';

export function registerExec(program: Command): void {
  withSourceOptions(program.command('exec'))
    .description("run one check now as the client would (tokens, timeout, hooks); exit with the check's status")
    .argument('<check>', 'check name')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--json', 'print the whole result as JSON')
    .action(async (name: string, positional: string[], flags: SourceFlags & { json?: boolean }) => {
      const settings = loadValidOrReport(flags, positional);
      if (!settings) return;
      if (!settings.checks[name]) throw new CheckbridgeError('CB_CLI_CHECK_UNKNOWN', name);
      const result = await runCheck(
        { ...definitionOf(settings, name), issued: Math.floor(Date.now() / 1000) },
        {
          client: settings.client as Record<string, unknown>,
          run: spawnCommand,
          clock: systemClock,
          defaultTimeout: defaultCheckTimeoutOf(settings),
          onMetricError: (e) => process.stderr.write(`metric line ${e.line} skipped: ${e.reason}\n`),
        },
      );
      if (flags.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
      else process.stdout.write(result.check.output.endsWith('\n') || result.check.output === '' ? result.check.output : result.check.output + '\n');
      process.exitCode = Math.min(Math.max(result.check.status, 0), 255);
    });
}
