import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadSettings } from '../../src/config/load-settings.js';
import { CORPUS, sharedSkipReason } from '../helpers/paths.js';
import { runCli } from '../helpers/cli.js';

const skip = sharedSkipReason();
const files = skip
  ? []
  : readdirSync(CORPUS)
      .filter((f) => f.endsWith('.json'))
      .sort();
const env = { SENSU_CLIENT_NAME: 'corpus-client', SENSU_CLIENT_ADDRESS: '127.0.0.1' };

// Invalid on their own under the legacy rules: fragments, template placeholders in names, unknown handler types.
const EXPECTED_INVALID = [
  'groventure__docker-sensu__templates__client-config.tmpl.json',
  'growse__sensu-client.net__conf.d__client.json',
  'huhongbo__sensu-config__examples__data_bag__sensu-config__handlers.json',
  'huhongbo__sensu-config__files__default__sensu__conf.d__handlers.json',
  'jkhelil__sensu-heat-software-config__sensu__templates__etc__sensu__client__client.json',
  'matthewfranglen__sensu-example__docker__client__client.json',
  'probedock__probedock-sensu__config-templates__client.json',
  'salt-formulas__salt-formula-sensu__sensu__files__handlers__graphite.json',
  'sensu__sensu-puppet__spec__fixtures__defines__sensu_check__expected_check_with_othercheck_content.json',
  'sensu__sensu-settings__spec__assets__config.json',
  'sensu__sensu-translator__spec__config.json',
  'sensu__sensu__spec__conf.d__merger.json',
  'sensu__sensu__spec__config.json',
];

test('every real configuration file loads alone with a stable verdict and located diagnostics', { skip }, () => {
  const invalid: string[] = [];
  for (const file of files) {
    const sources = { configFile: null, configDirs: [join(CORPUS, file)] };
    const first = loadSettings(sources, env);
    const second = loadSettings(sources, env);
    assert.deepEqual(second.diagnostics, first.diagnostics, `verdict of ${file} is not stable`);
    for (const d of first.diagnostics) {
      assert.ok(d.file && d.line && d.column && d.message, `${file}: diagnostic without a location: ${JSON.stringify(d)}`);
    }
    if (first.diagnostics.length > 0) invalid.push(file);
    else assert.ok(first.settings, file);
  }
  assert.deepEqual(invalid, EXPECTED_INVALID);
  assert.ok(files.length >= 290, `expected the whole corpus, found ${files.length} files`);
});

test('the CLI gives the same verdicts on a sample of the corpus', { skip }, () => {
  const sample = [files[0]!, EXPECTED_INVALID[0]!, files.find((f) => f.includes('check_cron'))!, EXPECTED_INVALID[11]!];
  for (const file of sample) {
    const result = runCli(['validate', '--json', join(CORPUS, file)], { env });
    const report = JSON.parse(result.stdout);
    assert.equal(report.valid, !EXPECTED_INVALID.includes(file), file);
    assert.equal(result.code, report.valid ? 0 : 2, file);
  }
});
