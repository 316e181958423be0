import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { DateTime } from 'luxon';
import { stringify } from 'yaml';
import { CheckbridgeError } from '../errors.js';
import { apiTarget, request, apiError } from './api-client.js';

interface ApiKey {
  metadata: { name: string; created_by?: string };
  username: string;
  created_at?: number;
}

const FORMATS = ['tabular', 'json', 'wrapped-json', 'yaml'];
const createdAt = (s?: number) => (s ? DateTime.fromSeconds(s).toFormat('yyyy-MM-dd HH:mm:ss ZZZ ZZZZ') : 'N/A');
const wrapped = (key: ApiKey) => ({
  type: 'APIKey',
  api_version: 'core/v2',
  metadata: key.metadata,
  spec: { created_at: key.created_at ?? 0, username: key.username },
});

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => ' ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' │ ') + ' ';
  return [line(rows[0]!), '─' + widths.map((w) => '─'.repeat(w)).join('─┼─') + '─', ...rows.slice(1).map(line)].join('\n') + '\n';
}

function render(keys: ApiKey[], format: string, single: boolean): string {
  if (!FORMATS.includes(format)) throw new CheckbridgeError('CB_CLI_USAGE', `--format must be one of ${FORMATS.join(', ')}`);
  if (format === 'json') return JSON.stringify(single ? keys[0] : keys, null, 2) + '\n\n';
  if (format === 'wrapped-json') return keys.map((k) => JSON.stringify(wrapped(k), null, 2) + '\n').join('');
  if (format === 'yaml') return keys.map((k) => stringify(wrapped(k))).join('---\n');
  if (single) {
    const k = keys[0]!;
    return `=== ${k.metadata.name}\nName:        ${k.metadata.name}\nUsername:    ${k.username}\nCreated At:  ${createdAt(k.created_at)}\n`;
  }
  return table([['Name', 'Username', 'Created At'], ...keys.map((k) => [k.metadata.name, k.username, createdAt(k.created_at)])]);
}

type Globals = { url?: string; apiKey?: string };

/** `checkbridge api-key grant|info|list|revoke`, against a running v2 API. */
export function registerApiKey(program: Command): void {
  const group = program.command('api-key').description('manage API keys of a v2 API (--url, --api-key)');
  const globals = (command: Command) => command.optsWithGlobals() as Globals & { format?: string; skipConfirm?: boolean };
  group
    .command('grant')
    .argument('<username>')
    .description('create an API key for USERNAME; prints its path')
    .action(async (username: string, _o: unknown, command: Command) => {
      const target = await apiTarget(globals(command));
      const reply = await request(target, 'POST', '/api/core/v2/apikeys', { username });
      if (reply.status !== 201) throw apiError(reply);
      process.stdout.write(`Created: ${reply.headers.get('location')}\n`);
    });
  group
    .command('info')
    .argument('<key>')
    .option('--format <format>', 'tabular, json, wrapped-json or yaml', 'tabular')
    .action(async (key: string, _o: unknown, command: Command) => {
      const flags = globals(command);
      const reply = await request(await apiTarget(flags), 'GET', `/api/core/v2/apikeys/${encodeURIComponent(key)}`);
      if (reply.status !== 200) throw apiError(reply);
      process.stdout.write(render([JSON.parse(reply.text) as ApiKey], flags.format ?? 'tabular', true));
    });
  group
    .command('list')
    .option('--format <format>', 'tabular, json, wrapped-json or yaml', 'tabular')
    .action(async (_o: unknown, command: Command) => {
      const flags = globals(command);
      const reply = await request(await apiTarget(flags), 'GET', '/api/core/v2/apikeys');
      if (reply.status !== 200) throw apiError(reply);
      process.stdout.write(render(JSON.parse(reply.text) as ApiKey[], flags.format ?? 'tabular', false));
    });
  group
    .command('revoke')
    .argument('<key>')
    .option('--skip-confirm', 'do not ask for confirmation')
    .action(async (key: string, _o: unknown, command: Command) => {
      const flags = globals(command);
      if (!flags.skipConfirm) {
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        // End of input (not a terminal, nothing typed) answers no.
        const answer = await new Promise<string>((resolve) => {
          rl.once('close', () => resolve(''));
          rl.question(`Are you sure you would like to revoke API key ${key}? (y/N) `).then(resolve, () => resolve(''));
        });
        rl.close();
        if (!/^y(es)?$/i.test(answer.trim())) {
          process.stdout.write('Canceled\n');
          return;
        }
      }
      const reply = await request(await apiTarget(flags), 'DELETE', `/api/core/v2/apikeys/${encodeURIComponent(key)}`);
      if (reply.status !== 204) throw apiError(reply);
      process.stdout.write('Deleted\n');
    });
}
