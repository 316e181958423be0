// One store class per engine (sqlite/, postgres/): the code both engines run (sql/, tables/, the interface) never asks which engine it is on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { StateStore } from '../../src/store/index.js';

const STORE = join(ROOT, 'src', 'store');
// An engine test in shared code: a look at either engine's handle, an instanceof of either client, a compare of the engine's name.
const ENGINE_TEST = /this\.(sqlite|postgres)\b|instanceof (SyncPostgres|Database)\b|engine [!=]==/;

test("the store code both engines run has no engine test: what differs lives in each engine's class", () => {
  const offenders: string[] = [];
  for (const dir of ['.', 'sql', 'tables']) {
    for (const file of readdirSync(join(STORE, dir)).filter((name) => name.endsWith('.ts'))) {
      const lines = readFileSync(join(STORE, dir, file), 'utf8').split('\n');
      lines.forEach((line, i) => ENGINE_TEST.test(line) && offenders.push(`src/store/${dir}/${file}:${i + 1}: ${line.trim()}`));
    }
  }
  assert.deepEqual(offenders, []);
});

test("StateStore.open gives the SQLite engine's store: named sqlite, with its SQLite handle, and no locks to take", () => {
  const store = StateStore.open(':memory:');
  try {
    assert.equal(store.engine, 'sqlite');
    assert.ok(store.sqlite?.open);
    store.transaction(() => store.lockResults([['a', 'b']]));
    assert.equal(store.alarm(), null);
  } finally {
    store.close();
  }
});
