// The legacy daemon flags that keep working: `--validate_config`, `--print_config`/`-P` and `-L`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translateLegacyArgs } from '../../src/cli/legacy-args.js';

test('a legacy command flag becomes the command, wherever it stands; -L becomes --log-level', () => {
  assert.deepEqual(translateLegacyArgs(['-d', 'conf.d', '--validate_config']), ['validate', '-d', 'conf.d']);
  assert.deepEqual(translateLegacyArgs(['--print_config', '-c', 'config.json']), ['print-config', '-c', 'config.json']);
  assert.deepEqual(translateLegacyArgs(['-P', '-L', 'debug', '-d', 'conf.d']), ['print-config', '--log-level', 'debug', '-d', 'conf.d']);
  assert.deepEqual(translateLegacyArgs(['-L']), ['--log-level', ''], 'a missing level is still passed, for the parser to refuse');
});

test('anything else passes through unchanged', () => {
  assert.deepEqual(translateLegacyArgs([]), []);
  assert.deepEqual(translateLegacyArgs(['run', '-d', 'conf.d', '--state-dir', 's']), ['run', '-d', 'conf.d', '--state-dir', 's']);
});
