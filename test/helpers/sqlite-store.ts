// A state store on SQLite in a private directory, closed and removed after the test.
import type { TestContext } from 'node:test';
import { join } from 'node:path';
import { StateStore } from '../../src/store/index.js';
import { makeTree, removeTree } from './tree.js';

export function sqliteStore(t: TestContext): StateStore {
  const dir = makeTree({});
  const store = StateStore.open(join(dir, 'checkbridge.db'));
  t.after(() => {
    store.close();
    removeTree(dir);
  });
  return store;
}
