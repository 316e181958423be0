// A definition's command run with its secrets in its environment, their values redacted from what it printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withSecrets } from '../../src/secrets/with-secrets.js';
import { spawnCommand } from '../../src/execute/spawn.js';
import type { SecretsLookup } from '../../src/secrets/resolver.js';

const definition = { command: 'x', secrets: [{ name: 'TOKEN', secret: 'api-token' }] };

test('the resolved secrets are in the command’s environment, over its own overlay, and redacted from its output', async () => {
  const asked: unknown[] = [];
  const lookup: SecretsLookup = async (refs) => {
    asked.push(refs);
    return { ok: true, env: { TOKEN: 's3cr3t-value' }, values: ['s3cr3t-value'] };
  };
  const spawn = withSecrets(spawnCommand, definition, lookup);
  const result = await spawn('echo "token=$TOKEN other=$OTHER"', { env: { OTHER: 'kept', TOKEN: 'overlaid' } });
  assert.deepEqual(asked, [[{ name: 'TOKEN', secret: 'api-token' }]]);
  assert.equal(result.status, 0);
  assert.equal(result.output, 'token=REDACTED other=kept\n');
});

test('a secret that cannot be resolved fails the execution with status 3 and why, the command never run', async () => {
  const lookup: SecretsLookup = async () => ({ ok: false, output: 'secret api-token: not found' });
  const spawn = withSecrets(spawnCommand, definition, lookup);
  const result = await spawn('echo ran; exit 0', {});
  assert.equal(result.status, 3);
  assert.equal(result.output, 'secret api-token: not found');
  assert.equal(result.timedOut, false);
  assert.equal(result.signal, null);
});

test('a definition without secrets, or no resolver, runs the command as it is', async () => {
  const lookup: SecretsLookup = async () => assert.fail('not asked');
  assert.equal(withSecrets(spawnCommand, { command: 'x' }, lookup), spawnCommand);
  assert.equal(withSecrets(spawnCommand, { command: 'x', secrets: [{ name: '', secret: 's' }] }, lookup), spawnCommand);
  assert.equal(withSecrets(spawnCommand, definition, undefined), spawnCommand);
});
