import { InvalidArgumentError, type Command } from 'commander';
import { redact } from '../config/index.js';
import { withSourceOptions, loadValidOrReport, type SourceFlags } from './sources.js';

function parseBoolean(value: string): boolean {
  if (/^(true|yes|1|on)$/i.test(value)) return true;
  if (/^(false|no|0|off)$/i.test(value)) return false;
  // Commander's own error for an option's value: a usage error (64), said as one, no stack.
  throw new InvalidArgumentError(`expected true or false, got ${value}`);
}

export function registerPrintConfig(program: Command): void {
  withSourceOptions(program.command('print-config'))
    .description('print the merged settings with defaults (legacy --print_config), secrets redacted')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--redacted <bool>', 'redact secrets (legacy redact list)', parseBoolean, true)
    .option('--no-redacted', 'print secrets as configured')
    .action((positional: string[], flags: SourceFlags & { redacted: boolean }) => {
      const settings = loadValidOrReport(flags, positional);
      if (!settings) return;
      const printed = { ...settings.raw, checks: settings.checks };
      process.stdout.write(JSON.stringify(flags.redacted ? redact(printed) : printed, null, 2) + '\n');
    });
}
