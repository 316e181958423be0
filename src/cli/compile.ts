import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { formatDiagnostic } from '../config/index.js';
import { compileSettings, formatReport, formatResources, parseTarget, writeResources, type OutputFormat, type ReportFormat } from '../compile/index.js';
import { StateStore, remainingSeconds, type RehearsalReport } from '../store/index.js';
import { configurationDigest, formatRehearsal, summarizeRehearsal } from '../rehearsal/index.js';
import type { Settings } from '../config/index.js';
import { CheckbridgeError } from '../errors.js';
import { withSourceOptions, loadFrom, type SourceFlags } from './sources.js';
import { lintDiagnostics } from './lint.js';

interface CompileFlags extends SourceFlags {
  namespace: string;
  format: string;
  out?: string;
  fromState?: string;
  target: string;
  strict?: boolean;
  report?: string;
  reportFormat?: string;
}

const FORMATS: OutputFormat[] = ['yaml', 'wrapped-json', 'json'];

/** Silence entries from a checkbridge state directory, with their remaining expiry, and its migration rehearsal's history. */
function fromState(dir: string): { silences: Record<string, unknown>[]; rehearsal: RehearsalReport } {
  const path = join(dir, 'checkbridge.db');
  if (!existsSync(path)) throw new CheckbridgeError('CB_CLI_USAGE', `--from-state: ${path} does not exist`);
  const store = StateStore.open(path);
  try {
    const nowMs = Date.now();
    return { silences: store.silences.list(nowMs).map((e) => ({ ...e.value, expire: remainingSeconds(e, nowMs) })), rehearsal: store.rehearsal.report() };
  } finally {
    store.close();
  }
}

/** The report with the rehearsal's section (what behaved differently on live events), when a state directory was given. */
function withRehearsal(text: string, rehearsal: RehearsalReport | null, settings: Settings, format: ReportFormat): string {
  if (!rehearsal) return text;
  const other = rehearsal.configuration !== null && rehearsal.configuration !== configurationDigest(settings);
  if (format === 'json')
    return JSON.stringify({ ...(JSON.parse(text) as object), rehearsal: { ...summarizeRehearsal(rehearsal), other_configuration: other } }, null, 2) + '\n';
  const note = other ? '\nThe rehearsal ran on another configuration than the one compiled here: run the daemon on this one to rehearse it.\n' : '';
  return `${text}\n${formatRehearsal(rehearsal, 'markdown', '##')}${note}`;
}

export function registerCompile(program: Command): void {
  withSourceOptions(program.command('compile'))
    .description('compile legacy configuration into core/v2 resources (exit 1 when it is invalid)')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--namespace <ns>', 'the namespace of the resources', 'default')
    .option('--format <format>', 'yaml, wrapped-json or json', 'yaml')
    .option('--out <dir>', 'write one file per resource kind into DIR instead of stdout')
    .option('--from-state <dir>', "also emit the silences stored in this state directory; the report gets its migration rehearsal's section")
    .option('--target <version>', 'the Sensu Go version the output is for (6.0 … 6.x)', '6.x')
    .option('--strict', 'fail (exit 1) on any warning, for CI')
    .option('--report <file>', 'write a migration report: Markdown, or JSON when FILE ends in .json')
    .option('--report-format <format>', 'markdown or json (default from the --report file name)')
    .action((positional: string[], flags: CompileFlags) => {
      if (!FORMATS.includes(flags.format as OutputFormat)) throw new CheckbridgeError('CB_CLI_USAGE', `--format must be one of ${FORMATS.join(', ')}`);
      const target = parseTarget(flags.target);
      if (!target) throw new CheckbridgeError('CB_CLI_USAGE', `--target must be a Sensu Go 6 version (6.0 … 6.x), not ${flags.target}`);
      const reportFormat = (flags.reportFormat ?? (flags.report?.endsWith('.json') ? 'json' : 'markdown')) as ReportFormat;
      if (reportFormat !== 'markdown' && reportFormat !== 'json') throw new CheckbridgeError('CB_CLI_USAGE', '--report-format must be markdown or json');
      const outcome = loadFrom(flags, positional);
      if (!outcome.settings) {
        for (const diagnostic of outcome.diagnostics) process.stderr.write(formatDiagnostic(diagnostic) + '\n');
        process.stderr.write('configuration is invalid: nothing compiled\n');
        process.exitCode = 1;
        return;
      }
      const state = flags.fromState ? fromState(flags.fromState) : null;
      const silences = state?.silences ?? [];
      const compiled = compileSettings(outcome.settings, outcome.files, flags.namespace, { silences, target });
      // What the legacy configuration really did (zone names ignored, crons that never fire) is a migration warning too,
      // and so is what the lint finds, unless the compiler already warned at that place.
      const compilerSaid = new Set(compiled.warnings.map((w) => w.path));
      const lint = lintDiagnostics(outcome.merged, outcome.files).filter((d) => !compilerSaid.has(d.path));
      const result = { ...compiled, warnings: [...(outcome.notices ?? []), ...lint, ...compiled.warnings] };
      const format = flags.format as OutputFormat;
      if (flags.report)
        writeFileSync(flags.report, withRehearsal(formatReport(result, target, reportFormat), state?.rehearsal ?? null, outcome.settings, reportFormat));
      if (flags.out) for (const path of writeResources(flags.out, result.resources, format)) process.stderr.write(`wrote ${path}\n`);
      else process.stdout.write(formatResources(result.resources, format));
      for (const warning of result.warnings) process.stderr.write(`warning: ${formatDiagnostic(warning)}\n`);
      for (const [check, labels] of Object.entries(result.labelReport))
        process.stderr.write(`labels: check ${check} reads entity labels ${labels.join(', ')}\n`);
      const counts = new Map<string, number>();
      for (const r of result.resources) counts.set(r.type, (counts.get(r.type) ?? 0) + 1);
      for (const r of result.refused) process.stderr.write(`error: ${r.resource} would be refused by Sensu Go (${r.reason}): not written\n`);
      process.stderr.write(
        `compiled ${result.resources.length} resources (${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')}), ${result.warnings.length} warnings\n`,
      );
      if (result.refused.length > 0) process.exitCode = 1;
      else if (flags.strict && result.warnings.length > 0) {
        process.stderr.write(`--strict: ${result.warnings.length} warnings\n`);
        process.exitCode = 1;
      }
    });
}
