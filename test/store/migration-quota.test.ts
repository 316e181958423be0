// Schema 6 rebuilds tables on open: the store's quota must still bound what it holds afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StateStore } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { makeTree, removeTree } from '../helpers/tree.js';

const QUOTA = 1024 * 1024;

test('a schema-5 store migrated on open still refuses writes past its quota', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  mkdirSync(join(dir, 'state'));
  const path = join(dir, 'state', 'checkbridge.db');
  // A schema-5 store (as the previous release left it) holding 80 events of 2 KB: within its 1 MB quota.
  const old = new Database(path);
  old.pragma('page_size = 8192');
  old.pragma('journal_mode = WAL');
  for (let v = 1; v <= 5; v++) {
    old.transaction(() => {
      old.exec(MIGRATIONS[v - 1]!);
      old.pragma(`user_version = ${v}`);
    })();
  }
  const put = old.prepare('INSERT INTO v2_events VALUES (?, ?, ?, ?)');
  for (let i = 0; i < 80; i++) put.run('default', 'old', `c${i}`, JSON.stringify({ output: 'y'.repeat(2000) }));
  const oldUsed = ((old.pragma('page_count', { simple: true }) as number) - (old.pragma('freelist_count', { simple: true }) as number)) * 8192;
  assert.ok(oldUsed < QUOTA, `the schema-5 store is within its quota (${oldUsed} bytes)`);
  old.close();

  const store = StateStore.open(path, { quotaBytes: QUOTA });
  t.after(() => store.close());
  let refused = false;
  for (let i = 0; i < 1000 && !refused; i++) {
    try {
      store.resources.putEvent('default', 'new', `c${i}`, { check: { output: 'z'.repeat(2000) } });
    } catch {
      refused = true;
    }
  }
  assert.ok(refused, 'writes are refused at the quota');
  const db = store.sqlite!;
  const used =
    ((db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number)) *
    (db.pragma('page_size', { simple: true }) as number);
  assert.ok(used <= QUOTA, `the store holds ${used} bytes, past its quota of ${QUOTA}`);
});
