// Assets in the legacy configuration: validated, and each runtime_assets name defined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTree, removeTree } from '../helpers/tree.js';
import { runCli } from '../helpers/cli.js';

const SHA = 'a'.repeat(128);

test('legacy configuration: assets are validated and an unknown runtime_assets name is named', (t) => {
  const root = makeTree({
    'conf.d/config.json': {
      assets: { good: { url: 'https://example.com/good.tar.gz', sha512: SHA }, broken: { url: 'ftp://x', sha512: 'abc' } },
      checks: {
        uses: {
          command: 'tool',
          interval: 60,
          subscribers: ['x'],
          runtime_assets: ['good', 'missing'],
          hooks: { critical: { command: 'tool', runtime_assets: ['gone'] } },
        },
      },
      handlers: { h: { type: 'pipe', command: 'tool', runtime_assets: ['good', 'absent'] } },
      mutators: { m: { command: 'tool', runtime_assets: 'good' } },
    },
  });
  t.after(() => removeTree(root));
  const result = runCli(['validate', '--json', join(root, 'conf.d')]);
  assert.equal(result.code, 2, result.stderr);
  const messages = (JSON.parse(result.stdout).errors as { path: string; message: string }[]).map((e) => `${e.path}: ${e.message}`);
  for (const expected of [
    '/assets/broken/url: asset url must be an http or https URL',
    '/assets/broken/sha512: asset sha512 must be 128 hexadecimal characters',
    '/checks/uses/runtime_assets: runtime_assets names an unknown asset: missing (define it under the top-level assets)',
    '/checks/uses/hooks/critical/runtime_assets: runtime_assets names an unknown asset: gone (define it under the top-level assets)',
    '/handlers/h/runtime_assets: runtime_assets names an unknown asset: absent (define it under the top-level assets)',
    '/mutators/m/runtime_assets: mutator runtime_assets must be an array',
  ])
    assert.ok(messages.includes(expected), `${expected}\n in ${messages.join('\n')}`);
  assert.equal(
    messages.some((m) => m.includes('good')),
    false,
    'a defined asset is not reported',
  );
});
