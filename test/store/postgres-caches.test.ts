// Two servers on one PostgreSQL: the configuration each reads per request comes from memory, dropped by the other's
// committed writes (LISTEN/NOTIFY); while a server does not listen it trusts nothing it held and says so on /health.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresFor, type PostgresServer } from '../servers/postgres.js';
import { instanceFor, eventually, getJson, type Instance } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';

const host = (name: string) => ({ 'conf.d/config.json': { client: { name, address: '127.0.0.1', subscriptions: [] } } });
// Generous bounds for a loaded machine: each wait ends as soon as its condition holds.
const WAIT_MS = 30_000;

async function twoServers(t: Parameters<typeof postgresFor>[0]) {
  const pg = await postgresFor(t);
  if (!pg) return null;
  const a = await instanceFor(t, host('server-a'), ['--store-dsn', `${pg.url()}?application_name=server-a`]);
  const b = await instanceFor(t, host('server-b'), ['--store-dsn', `${pg.url()}?application_name=server-b`]);
  const admin = `Bearer ${await adminToken(a.v2)}`;
  await listening(b);
  return { pg, a, b, admin };
}

const alarmOf = async (server: Instance) => (await getJson(`${server.v2}/health`)).body.Alarms as string | null;
const listening = async (server: Instance) =>
  assert.equal(
    await eventually(
      () => alarmOf(server),
      (alarm) => alarm === null,
      WAIT_MS,
    ),
    null,
  );

/** A user in group `dev` and an API key of theirs, made on `server`. */
async function userWithKey(server: Instance, admin: string, username: string): Promise<string> {
  assert.equal((await call(`${server.v2}/api/core/v2/users`, 'POST', admin, { username, password: `${username}-pass-1`, groups: ['dev'] })).status, 201);
  const grant = await call(`${server.v2}/api/core/v2/apikeys`, 'POST', admin, { username });
  assert.equal(grant.status, 201);
  return `Key ${grant.headers.get('location')!.split('/').pop()}`;
}

const checksOn = (server: Instance, key: string) => call(`${server.v2}/api/core/v2/namespaces/default/checks`, 'GET', key).then((r) => r.status);
const bindDev = (server: Instance, admin: string) =>
  call(`${server.v2}/api/core/v2/namespaces/default/rolebindings/dev-view`, 'PUT', admin, {
    subjects: [{ type: 'Group', name: 'dev' }],
    role_ref: { type: 'ClusterRole', name: 'view' },
  });
const unbindDev = (server: Instance, admin: string) => call(`${server.v2}/api/core/v2/namespaces/default/rolebindings/dev-view`, 'DELETE', admin);
const becomes = async (read: () => Promise<number>, status: number) => assert.equal(await eventually(read, (s) => s === status, WAIT_MS), status);

test(
  'postgres caches: a role binding, a revoked key and a disabled user written on one server change the other server’s answers',
  { timeout: 180_000 },
  async (t) => {
    const servers = await twoServers(t);
    if (!servers) return;
    const { a, b, admin } = servers;
    const alice = await userWithKey(a, admin, 'alice');
    const bob = await userWithKey(a, admin, 'bob');
    // Asked twice: the second answer is B's cached one.
    assert.equal(await checksOn(b, alice), 403);
    assert.equal(await checksOn(b, alice), 403);
    assert.equal((await bindDev(a, admin)).status, 201);
    await becomes(() => checksOn(b, alice), 200);
    assert.equal(await checksOn(b, bob), 200);
    assert.equal((await unbindDev(a, admin)).status, 204);
    await becomes(() => checksOn(b, alice), 403);
    assert.equal((await bindDev(a, admin)).status, 201);
    await becomes(() => checksOn(b, alice), 200);
    // Revoked on A: the key stops working on B.
    const id = ((await call(`${a.v2}/api/core/v2/apikeys`, 'GET', admin)).body as any[]).find((k) => k.username === 'alice').metadata.name;
    assert.equal((await call(`${a.v2}/api/core/v2/apikeys/${id}`, 'DELETE', admin)).status, 204);
    await becomes(() => checksOn(b, alice), 401);
    // Disabled (deleted) on A: the user's key stops working on B.
    assert.equal(await checksOn(b, bob), 200);
    assert.equal((await call(`${a.v2}/api/core/v2/users/bob`, 'DELETE', admin)).status, 204);
    await becomes(() => checksOn(b, bob), 401);
  },
);

test('postgres caches: served from memory while listening; a change notification drops them', { timeout: 180_000 }, async (t) => {
  const servers = await twoServers(t);
  if (!servers) return;
  const { pg, a, b, admin } = servers;
  const alice = await userWithKey(a, admin, 'alice');
  assert.equal((await bindDev(a, admin)).status, 201);
  await becomes(() => checksOn(b, alice), 200);
  // Behind the triggers' back (no notification): B keeps answering from what it holds.
  await pg.query("SET search_path TO checkbridge_store; ALTER TABLE api_keys DISABLE TRIGGER USER; DELETE FROM api_keys WHERE username = 'alice'");
  assert.equal(await checksOn(b, alice), 200, 'served from memory: no notification said the keys changed');
  await pg.query("NOTIFY checkbridge_store_changes, 'api_keys'");
  await becomes(() => checksOn(b, alice), 401);
});

test(
  'postgres caches: B’s listening connection terminated: B reports the store degraded, reads PostgreSQL (nothing stale), then listens again',
  { timeout: 180_000 },
  async (t) => {
    const servers = await twoServers(t);
    if (!servers) return;
    const { pg, a, b, admin } = servers;
    const alice = await userWithKey(a, admin, 'alice');
    assert.equal(await checksOn(b, alice), 403);
    let checked = false;
    for (let attempt = 0; attempt < 20 && !checked; attempt++) {
      const bound = attempt % 2 === 0;
      await terminateListener(pg, 'server-b');
      assert.match(
        String(
          await eventually(
            () => alarmOf(b),
            (alarm) => alarm !== null,
            WAIT_MS,
          ),
        ),
        /^DEGRADED: not listening for other servers' changes/,
      );
      const heardAgain = b.daemon.logs.filter((l) => /listening for other servers' changes again/.test(String(l.msg))).length;
      assert.equal((await (bound ? bindDev(a, admin) : unbindDev(a, admin))).status, bound ? 201 : 204);
      // Not listening: the next answer must already be the new one (no cache to wait on).
      const status = await checksOn(b, alice);
      const stillAway =
        (await alarmOf(b)) !== null && b.daemon.logs.filter((l) => /listening for other servers' changes again/.test(String(l.msg))).length === heardAgain;
      if (!stillAway) continue; // B listened again in between (a retry each second): its answer may wait on the notification; try again.
      assert.equal(status, bound ? 200 : 403, 'a server that does not listen reads PostgreSQL');
      checked = true;
    }
    assert.ok(checked, 'B stayed away long enough for one write and read in 20 attempts');
    await listening(b);
    assert.equal(a.daemon.logs.filter((l) => /not listening for other servers' changes/.test(String(l.msg))).length, 0, "A's connection was left alone");
  },
);

async function terminateListener(pg: PostgresServer, server: string): Promise<void> {
  const killed = await eventually(
    async () => (await pg.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${server} store changes'`)).rowCount ?? 0,
    (n) => n > 0,
    WAIT_MS,
  );
  assert.ok(killed > 0, `${server}'s listening connection found`);
}

test(
  'postgres caches: B’s listening backend stopped (SIGSTOP, a silent connection): B stops trusting what it holds, reads PostgreSQL, says so on /health',
  { timeout: 180_000 },
  async (t) => {
    const servers = await twoServers(t);
    if (!servers) return;
    const { pg, a, b, admin } = servers;
    const alice = await userWithKey(a, admin, 'alice');
    assert.equal(await checksOn(b, alice), 403);
    const [backend] = (await pg.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'server-b store changes'")).rows.map((r) => Number(r.pid));
    assert.ok(backend, "server-b's listening backend found");
    process.kill(backend, 'SIGSTOP');
    // Should the test fail while it is stopped (the server may be gone by then).
    t.after(
      () =>
        void Promise.resolve()
          .then(() => process.kill(backend, 'SIGCONT'))
          .catch(() => undefined),
    );
    // The binding's notification cannot reach B: B answers from PostgreSQL once what it holds is no longer trusted.
    assert.equal((await bindDev(a, admin)).status, 201);
    await becomes(() => checksOn(b, alice), 200);
    assert.match(
      String(
        await eventually(
          () => alarmOf(b),
          (alarm) => alarm !== null,
          WAIT_MS,
        ),
      ),
      /^DEGRADED: /,
    );
    process.kill(backend, 'SIGCONT');
    await listening(b);
    assert.equal((await unbindDev(a, admin)).status, 204);
    await becomes(() => checksOn(b, alice), 403);
  },
);
