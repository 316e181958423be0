// The embedded datastore's quota: past it, /health raises an alarm, growing writes fail clearly, reads go on.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { tcpExchange } from '../../helpers/net.js';
import { adminToken, call } from '../../api/v2/v2-helpers.js';
import { StateStore } from '../../../src/store/index.js';
import { DEFAULT_STORE_QUOTA, applyQuota, diskAlarm, quotaAlarm, quotaFailure, usedBytes } from '../../../src/store/sqlite/quota.js';
import { CheckbridgeError } from '../../../src/errors.js';
import { makeTree, removeTree } from '../../helpers/tree.js';

// A database of 4 KB pages holding one table that grows by about a page per row.
function smallDatabase(t: TestContext): { db: Database.Database; grow: () => void } {
  const db = new Database(':memory:');
  t.after(() => db.close());
  db.pragma('page_size = 4096');
  db.exec('CREATE TABLE t (v TEXT)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  return { db, grow: () => insert.run('x'.repeat(3000)) };
}

test('the default quota is 4 GB', () => {
  const store = StateStore.open(':memory:');
  assert.equal(store.quotaBytes, 4 * 1024 ** 3);
  assert.equal(DEFAULT_STORE_QUOTA, 4 * 1024 ** 3);
  assert.equal(store.sqlite!.pragma('max_page_count', { simple: true }), (4 * 1024 ** 3) / (store.sqlite!.pragma('page_size', { simple: true }) as number));
  assert.equal(store.alarm(), null);
  store.close();
});

test('a small checkbridge.store_quota: results refused with a clear error once it is reached, alarm in /health, reads still served', async (t) => {
  const { v2, api, socket, daemon } = await instanceFor(t, {
    'conf.d/client.json': { client: { name: 'quota-host', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/checkbridge.json': { checkbridge: { store_quota: 393216 } },
  });
  const auth = `Bearer ${await adminToken(v2)}`;
  const before = await getJson(`${v2}/health`);
  assert.equal(before.body.Alarms, null);
  const big = 'x'.repeat(16_000);
  let accepted = 0;
  let refused = false;
  for (let i = 0; i < 100 && !refused; i++) {
    const answer = await tcpExchange(socket, JSON.stringify({ name: `check_${i}`, output: big, status: 1 }));
    if (answer === 'ok') accepted++;
    else refused = true;
  }
  assert.ok(refused, 'a result was refused');
  assert.ok(accepted > 0, 'results were accepted until the quota');
  const line = await daemon.waitFor((l) => /maximum size of 393216 bytes/.test(JSON.stringify(l)));
  assert.match(JSON.stringify(line), /embedded datastore is over its quota/);

  const health = await getJson(`${v2}/health`);
  assert.equal(health.status, 200);
  assert.match(health.body.Alarms, /^NOSPACE: the embedded datastore uses \d+ of its 393216 bytes/);

  // Reads keep working, on both APIs.
  const results = await getJson(`${api}/results/quota-host`);
  assert.equal(results.status, 200);
  assert.ok(results.body.length >= accepted);
  const events = await call(`${v2}/api/core/v2/namespaces/default/events`, 'GET', auth);
  assert.equal(events.status, 200);
  assert.ok(events.body.length >= accepted);
  // A v2 write that would grow the store: 507 with the reason.
  const handler = await call(`${v2}/api/core/v2/namespaces/default/handlers/huge`, 'PUT', auth, { type: 'pipe', command: 'y'.repeat(200_000) });
  assert.equal(handler.status, 507);
  assert.match(handler.body.message, /over its quota.*393216 bytes/);
});

test('the quota is a page count: the bytes rounded down to whole pages, at least one page', (t) => {
  const { db } = smallDatabase(t);
  applyQuota(db, 10 * 4096 + 100);
  assert.equal(db.pragma('max_page_count', { simple: true }), 10);
  applyQuota(db, 100);
  // SQLite keeps max_page_count at least the database's size: the page already in use.
  assert.ok((db.pragma('max_page_count', { simple: true }) as number) >= 1);
});

test('writes that grow the database past the quota fail with SQLITE_FULL, mapped to CB_STORE_QUOTA naming the quota', (t) => {
  const { db, grow } = smallDatabase(t);
  applyQuota(db, 16 * 4096);
  let failure: unknown = null;
  for (let i = 0; i < 40 && failure === null; i++) {
    try {
      grow();
    } catch (error) {
      failure = error;
    }
  }
  assert.equal((failure as { code?: string }).code, 'SQLITE_FULL');
  const mapped = quotaFailure(failure, 65536);
  assert.ok(mapped instanceof CheckbridgeError);
  assert.equal(mapped.code, 'CB_STORE_QUOTA');
  assert.equal(mapped.httpStatus, 507);
  assert.match(mapped.message, /reached its maximum size of 65536 bytes \(checkbridge.store_quota, or the disk is full\)$/);
  const other = Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' });
  assert.equal(quotaFailure(other, 65536), other);
});

test('the bytes in use are the pages in use: freed pages are not counted', (t) => {
  const { db, grow } = smallDatabase(t);
  for (let i = 0; i < 10; i++) grow();
  const used = usedBytes(db);
  assert.equal(used, (db.pragma('page_count', { simple: true }) as number) * 4096);
  db.exec('DELETE FROM t');
  assert.ok(usedBytes(db) < used - 8 * 4096, `${usedBytes(db)} bytes in use after the delete, of ${used}`);
  assert.equal(usedBytes(db), ((db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number)) * 4096);
});

test('the alarm: none while a page is left to grow into; raised with the sizes once none is, or a write was refused at this size', (t) => {
  const { db, grow } = smallDatabase(t);
  for (let i = 0; i < 4; i++) grow();
  const used = usedBytes(db);
  assert.equal(quotaAlarm(db, used + 4096, null), null);
  assert.equal(
    quotaAlarm(db, used + 4095, null),
    `NOSPACE: the embedded datastore uses ${used} of its ${used + 4095} bytes (checkbridge.store_quota); writes that grow it are refused`,
  );
  assert.match(quotaAlarm(db, used + 10 * 4096, used) ?? '', /^NOSPACE: the embedded datastore uses /);
  assert.equal(quotaAlarm(db, used + 10 * 4096, used + 1), null, 'the store shrank below the size at which a write was refused');
});

test('no disk alarm while the filesystem under the store has room', (t) => {
  const dir = makeTree({});
  t.after(() => removeTree(dir));
  assert.equal(diskAlarm(join(dir, 'checkbridge.db')), null);
});
