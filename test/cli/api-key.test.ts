import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { instanceFor, ADMIN_PASSWORD, getJson } from '../helpers/instance.js';
import { runCli } from '../helpers/cli.js';

test('api-key grant, info (tabular, json, wrapped-json, yaml), list, revoke against a running server', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'cli-host', address: '127.0.0.1', subscriptions: [] } } });
  const asAdmin = { env: { CHECKBRIDGE_USERNAME: 'admin', CHECKBRIDGE_PASSWORD: ADMIN_PASSWORD, CHECKBRIDGE_API_KEY: '' } };
  const granted = runCli(['api-key', 'grant', 'admin', '--url', v2], asAdmin);
  assert.equal(granted.code, 0, granted.stderr);
  const match = /^Created: \/api\/core\/v2\/apikeys\/([0-9a-f-]{36})\n$/.exec(granted.stdout);
  assert.ok(match, granted.stdout);
  const key = match[1]!;
  const withKey = (args: string[]) => runCli(['--url', v2, '--api-key', key, ...args]);

  const tabular = withKey(['api-key', 'info', key]);
  assert.equal(tabular.code, 0, tabular.stderr);
  assert.match(tabular.stdout, new RegExp(`Name: +${key}\\nUsername: +admin\\nCreated At: +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [+-]\\d{4} `));
  assert.deepEqual(JSON.parse(withKey(['api-key', 'info', key, '--format', 'json']).stdout).username, 'admin');
  const wrapped = JSON.parse(withKey(['api-key', 'info', key, '--format', 'wrapped-json']).stdout);
  assert.deepEqual([wrapped.type, wrapped.api_version, wrapped.metadata.name, wrapped.spec.username], ['APIKey', 'core/v2', key, 'admin']);
  const yaml = parse(withKey(['api-key', 'info', key, '--format', 'yaml']).stdout);
  assert.deepEqual([yaml.type, yaml.spec.username, typeof yaml.spec.created_at], ['APIKey', 'admin', 'number']);

  const second = /apikeys\/(\S+)/.exec(withKey(['api-key', 'grant', 'admin']).stdout)![1]!;
  const list = withKey(['api-key', 'list']);
  assert.equal(list.code, 0, list.stderr);
  const lines = list.stdout.trim().split('\n');
  assert.match(lines[0]!, /Name\s+│ Username\s+│ Created At/);
  assert.equal(lines.length, 4, list.stdout);

  assert.equal(runCli(['--url', v2, '--api-key', key, 'api-key', 'revoke', second], { env: {} }).stdout, 'Canceled\n', 'no confirmation, nothing revoked');
  assert.equal(withKey(['api-key', 'revoke', second, '--skip-confirm']).stdout, 'Deleted\n');
  const again = withKey(['api-key', 'revoke', second, '--skip-confirm']);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /not found/);
  assert.equal((await getJson(`${v2}/api/core/v2/events`, { headers: { authorization: `Key ${second}` } })).status, 401, 'revoked');

  const wrong = runCli(['api-key', 'list', '--url', v2, '--api-key', 'nope']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /invalid credentials/);
  const nothing = runCli(['api-key', 'list', '--url', v2], { env: { CHECKBRIDGE_API_KEY: '', CHECKBRIDGE_USERNAME: '' } });
  assert.equal(nothing.code, 64);
  assert.match(nothing.stderr, /no credentials/);
});
