import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';

const EXPECTED: Record<string, readonly string[]> = {
  run: ['CHECKBRIDGE_ADMIN_PASSWORD', 'CHECKBRIDGE_CONFIG_DIR', 'SENSU_CLIENT_NAME', '/etc/sensu/config.json', '/etc/sensu/conf.d', './conf.d'],
  validate: ['CHECKBRIDGE_CONFIG_FILE', 'CHECKBRIDGE_LEGACY_ETC', '/etc/sensu/conf.d'],
  exec: ['CHECKBRIDGE_CONFIG_DIR'],
  create: ['CHECKBRIDGE_USERNAME', 'CHECKBRIDGE_PASSWORD', 'CHECKBRIDGE_API_KEY_FILE', 'CHECKBRIDGE_URL'],
  dump: ['CHECKBRIDGE_USERNAME', 'CHECKBRIDGE_PASSWORD'],
  'api-key': ['CHECKBRIDGE_USERNAME', 'CHECKBRIDGE_PASSWORD'],
  version: [],
};

test("every command's --help shows the global options and the environment variables it reads", () => {
  for (const [command, variables] of Object.entries(EXPECTED)) {
    const help = runCli([command, '--help']);
    assert.equal(help.code, 0, command);
    assert.match(help.stdout, /Global Options:\n(.|\n)*--url <url>(.|\n)*--api-key-file <file>/, command);
    for (const variable of variables) assert.ok(help.stdout.includes(variable), `${command} --help names ${variable}`);
    if (variables.length > 0) assert.match(help.stdout, /\nEnvironment:\n/, command);
  }
  assert.match(runCli(['api-key', 'grant', '--help']).stdout, /Global Options:(.|\n)*Environment:(.|\n)*CHECKBRIDGE_PASSWORD/);
});
