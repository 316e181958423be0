// The legacy SENSU_LOADED_TEMPFILE: the loaded config files, colon-joined, in a file plugins find by that variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LoadedTempfile } from '../../src/config/loaded-tempfile.js';

const dirFor = (t: { after(fn: () => void): void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-loaded-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

test('in the state directory, or SENSU_LOADED_TEMPFILE_DIR when set', (t) => {
  const dir = dirFor(t);
  assert.equal(new LoadedTempfile(dir, {}).path, join(dir, 'sensu_checkbridge_loaded_files'));
  assert.equal(new LoadedTempfile(dir, { SENSU_LOADED_TEMPFILE_DIR: '/other' }).path, '/other/sensu_checkbridge_loaded_files');
  assert.equal(new LoadedTempfile(dir, { SENSU_LOADED_TEMPFILE_DIR: '' }).path, join(dir, 'sensu_checkbridge_loaded_files'), 'empty is unset');
});

test('write: absolute paths colon-joined, owner-only, exported to the environment; remove deletes it', (t) => {
  const dir = dirFor(t);
  const previous = process.env.SENSU_LOADED_TEMPFILE;
  t.after(() => (previous === undefined ? delete process.env.SENSU_LOADED_TEMPFILE : (process.env.SENSU_LOADED_TEMPFILE = previous)));
  const file = new LoadedTempfile(dir, {});
  writeFileSync(file.path + '.partial', 'leftover');
  chmodSync(file.path + '.partial', 0o644);
  file.write(['/etc/sensu/config.json', 'conf.d/checks.json']);
  assert.equal(readFileSync(file.path, 'utf8'), `/etc/sensu/config.json:${resolve('conf.d/checks.json')}`);
  assert.equal(statSync(file.path).mode & 0o777, 0o600, 'a leftover partial file does not lend its mode');
  assert.equal(existsSync(file.path + '.partial'), false);
  assert.equal(process.env.SENSU_LOADED_TEMPFILE, file.path);
  file.write([]);
  assert.equal(readFileSync(file.path, 'utf8'), '');
  file.remove();
  assert.equal(existsSync(file.path), false);
  file.remove();
});
