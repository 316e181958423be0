import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { versionText } from '../../src/cli/version.js';
import { SCHEMA_VERSION } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

test('the version text names version, build, build time, node and every store schema', () => {
  const info = { version: '1.2.3', commit: 'abc123', built_at: '2026-01-02T03:04:05Z', node: 'v20.0.0', store_schemas: { sqlite: 7, postgres: 3 } };
  assert.equal(versionText(info), 'checkbridge version 1.2.3, build abc123, built 2026-01-02T03:04:05Z, node v20.0.0\nstore schemas: sqlite 7, postgres 3');
});

test('a build that recorded nothing says unknown', () => {
  const info = { version: '0.0.0', commit: null, built_at: null, node: 'v22.1.0', store_schemas: { sqlite: 1 } };
  assert.equal(versionText(info), 'checkbridge version 0.0.0, build unknown, built unknown, node v22.1.0\nstore schemas: sqlite 1');
});

test('`version --json` reads the package version, the build record and the store schema', () => {
  const result = runCli(['version', '--json']);
  assert.equal(result.code, 0, result.stderr);
  const info = JSON.parse(result.stdout) as Record<string, unknown>;
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const build = JSON.parse(readFileSync(join(ROOT, 'dist', 'build-info.json'), 'utf8')) as { commit: string; built_at: string };
  assert.deepEqual(info, {
    version: pkg.version,
    commit: build.commit,
    built_at: build.built_at,
    node: process.version,
    store_schemas: { sqlite: SCHEMA_VERSION },
  });
  const text = runCli(['version']);
  assert.equal(text.stdout, versionText(info as unknown as Parameters<typeof versionText>[0]) + '\n');
  assert.equal(runCli(['--version']).stdout, text.stdout, '-V and --version print the same text');
});
