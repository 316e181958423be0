// The shared store's DSN carries a password: no API body, log line or command's environment may show it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startInstance, getJson, eventually } from '../helpers/instance.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { postgresFor } from '../servers/postgres.js';

test("the store DSN's password stays out of /settings, the logs and every command's environment", async (t) => {
  const pg = await postgresFor(t);
  if (!pg) return;
  // Trust authentication ignores the password: it is there to be leaked, or not.
  const dsn = pg.url().replace('postgres://postgres@', 'postgres://postgres:hunter2-secret@');
  assert.ok(dsn.includes('hunter2-secret'));
  const root = makeTree({});
  const out = join(root, 'env.txt');
  const tree = makeTree({
    'conf.d/client.json': { client: { name: 'dsn-host', address: '127.0.0.1', subscriptions: [] } },
    'conf.d/store.json': { checkbridge: { store: { dsn } } },
    'conf.d/check.json': { checks: { dump: { command: `env > ${out}`, standalone: true, interval: 1 } } },
  });
  const instance = await startInstance(tree, [], { CHECKBRIDGE_STORE_DSN: dsn });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
    removeTree(tree);
  });
  const env = await eventually(
    async () => (existsSync(out) ? readFileSync(out, 'utf8') : ''),
    (text) => text.includes('PATH='),
    15_000,
  );
  assert.ok(!env.includes('hunter2-secret'), 'a check sees the store password');
  const settings = await getJson(`${instance.api}/settings`);
  assert.equal(settings.status, 200);
  assert.equal(settings.body.checkbridge.store.dsn, dsn.replace('hunter2-secret', 'REDACTED'));
  assert.ok(!JSON.stringify(instance.daemon.logs).includes('hunter2-secret'), 'a log line shows the store password');
  assert.ok(
    instance.daemon.logs.some((l) => String(l.store ?? '').includes('REDACTED')),
    'the store in use is logged, redacted',
  );
});
