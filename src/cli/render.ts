import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { isPlainObject } from '../config/index.js';
import { parseConfigText } from '../config/index.js';
import { substituteObject } from '../tokens/index.js';
import { CheckbridgeError } from '../errors.js';
import { withSourceOptions, loadValidOrReport, type SourceFlags } from './sources.js';
import { configuredChecks } from '../config/index.js';

// A client file may hold the client itself or a settings object with a `client` key.
function readClientFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CheckbridgeError('CB_CLI_CLIENT_FILE', `${path}: ${(error as NodeJS.ErrnoException).code}`);
  }
  const parsed = parseConfigText(text);
  if (!parsed.ok) throw new CheckbridgeError('CB_CLI_CLIENT_FILE', `${path}:${parsed.line}:${parsed.column}: ${parsed.reason}`);
  if (!isPlainObject(parsed.data)) throw new CheckbridgeError('CB_CLI_CLIENT_FILE', `${path}: must be a JSON object`);
  return isPlainObject(parsed.data.client) ? parsed.data.client : parsed.data;
}

export function registerRender(program: Command): void {
  withSourceOptions(program.command('render'))
    .description('print a check after token substitution with the client; exit 1 when tokens are unmatched')
    .argument('<check>', 'check name')
    .argument('[sources...]', 'conf.d directories or files')
    .option('--client <file>', 'a client JSON file to substitute from instead of the configured client')
    .action((name: string, positional: string[], flags: SourceFlags & { client?: string }) => {
      const settings = loadValidOrReport(flags, positional);
      if (!settings) return;
      const definition = configuredChecks(settings)[name];
      if (!definition) throw new CheckbridgeError('CB_CLI_CHECK_UNKNOWN', name);
      const client = flags.client ? readClientFile(flags.client) : (settings.client as Record<string, unknown>);
      const { value, unmatched } = substituteObject({ ...definition, name }, client);
      process.stdout.write(JSON.stringify({ ...value, unmatched_tokens: unmatched }, null, 2) + '\n');
      process.exitCode = unmatched.length > 0 ? 1 : 0;
    });
}
