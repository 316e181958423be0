import type { Command } from 'commander';
import { setFlagsFromString } from 'node:v8';
import { formatDiagnostic } from '../config/index.js';
import { isPlainObject } from '../config/index.js';
import { withSourceOptions, checkFrom, type SourceFlags } from './sources.js';
import { lintDiagnostics } from './lint.js';

function countOf(value: unknown): number {
  return isPlainObject(value) ? Object.keys(value).length : 0;
}

export function registerValidate(program: Command): void {
  withSourceOptions(program.command('validate'))
    .description('validate configuration (legacy --validate_config); exit 0 when valid, 2 when invalid')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--json', 'print a JSON report')
    .option('--strict', 'fail (exit 2) on any warning too, for CI')
    .action((positional: string[], flags: SourceFlags & { json?: boolean; strict?: boolean }) => {
      // One pass, then exit: optimizing the large schema validators costs more than it saves here.
      setFlagsFromString('--no-opt');
      const outcome = checkFrom(flags, positional);
      const warnings = [...outcome.notices, ...lintDiagnostics(outcome.merged, outcome.files)];
      const warned = warnings.length + outcome.warnings.length;
      const valid = outcome.diagnostics.length === 0 && !(flags.strict && warned > 0);
      if (flags.json) {
        const report = {
          valid,
          read: outcome.read,
          errors: outcome.diagnostics.map(({ file, line, column, path, message }) => ({ file, line, column, path, message })),
          warnings: warnings.map(({ file, line, column, path, message }) => ({ file, line, column, path, message })),
          counts: {
            checks: countOf(outcome.merged.checks),
            handlers: countOf(outcome.merged.handlers),
            filters: countOf(outcome.merged.filters),
            mutators: countOf(outcome.merged.mutators),
          },
        };
        process.stdout.write(JSON.stringify(report, null, 2) + '\n');
      } else {
        for (const warning of outcome.warnings) process.stderr.write(`warning: ${warning}\n`);
        for (const notice of warnings) process.stderr.write(`warning: ${formatDiagnostic(notice)}\n`);
        for (const diagnostic of outcome.diagnostics) process.stdout.write(formatDiagnostic(diagnostic) + '\n');
        if (flags.strict && warned > 0) process.stdout.write(`--strict: ${warned} warnings\n`);
        process.stdout.write(valid ? 'configuration is valid\n' : 'configuration is invalid\n');
      }
      process.exitCode = valid ? 0 : 2;
    });
}
