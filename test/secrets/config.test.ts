import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTree, removeTree } from '../helpers/tree.js';
import { runCli } from '../helpers/cli.js';

test('conf.d: secrets on checks, hooks, handlers and mutators are validated with legacy-style messages', (t) => {
  const good = [{ name: 'DB_PASS', secret: 'db' }];
  const root = makeTree({
    'ok/conf.d/all.json': {
      checks: { a: { command: 'true', interval: 60, subscribers: ['x'], secrets: good, hooks: { critical: { command: 'true', secrets: good } } } },
      handlers: { h: { type: 'pipe', command: 'cat', secrets: good } },
      mutators: { m: { command: 'cat', secrets: good } },
    },
    'bad/conf.d/all.json': {
      checks: {
        a: {
          command: 'true',
          interval: 60,
          subscribers: ['x'],
          secrets: [{ name: '1X', secret: 'db' }, { name: 'OK' }, 'str', { name: 'A', secret: 'b', extra: 1 }],
          hooks: { critical: { command: 'true', secrets: { a: 1 } } },
        },
      },
      handlers: { h: { type: 'pipe', command: 'cat', secrets: [{ name: 'H', secret: '' }] } },
      mutators: { m: { command: 'cat', secrets: 'db' } },
    },
  });
  t.after(() => removeTree(root));
  const ok = runCli(['validate', join(root, 'ok/conf.d')]);
  assert.equal(ok.code, 0, ok.stderr);
  // compile carries the references to Sensu Go's `secrets` (hooks there take none, which is said).
  const compiled = runCli(['compile', join(root, 'ok/conf.d'), '--format', 'json']);
  assert.equal(compiled.code, 0, compiled.stderr);
  const resources = JSON.parse(compiled.stdout) as { type: string; spec: { secrets?: unknown } }[];
  for (const type of ['CheckConfig', 'Handler', 'Mutator']) assert.deepEqual(resources.find((r) => r.type === type)?.spec.secrets, good, type);
  assert.match(compiled.stderr, /\/checks\/a\/hooks\/critical\/secrets: Sensu Go hooks take no secrets/);
  const bad = runCli(['validate', join(root, 'bad/conf.d')]);
  assert.equal(bad.code, 2);
  const messages = bad.stdout
    .split('\n')
    .filter((l) => l.includes(' /'))
    .map((l) => l.slice(l.indexOf(' /') + 1));
  assert.deepEqual(messages.sort(), [
    '/checks/a/hooks/critical/secrets: secrets must be an array of {"name", "secret"} objects',
    '/checks/a/secrets/0/name: secret name must be an environment variable name (letters, digits and _, not starting with a digit)',
    '/checks/a/secrets/1/secret: secret must name a Secret resource',
    '/checks/a/secrets/2: secrets must be an array of {"name", "secret"} objects',
    '/checks/a/secrets/3: a secrets entry has only name and secret',
    '/handlers/h/secrets/0/secret: secret must name a Secret resource',
    '/mutators/m/secrets: secrets must be an array of {"name", "secret"} objects',
  ]);
});
