// What a check or a handler can read of the daemon's credentials, up its parent chain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, writeTree } from '../helpers/tree.js';
import { startInstance, postJson, getJson, eventually, ADMIN_PASSWORD } from '../helpers/instance.js';
import { call, adminToken } from '../api/v2/v2-helpers.js';
import { postgresFor } from '../servers/postgres.js';

const unique = (what: string) => `${what}-${randomBytes(9).toString('hex')}`;

// Every ancestor's start environment and command line, as any command can read them: /proc/PID/environ and cmdline.
const SNOOP = `p=$$
while [ "$p" -gt 1 ]; do
  echo "== pid $p"
  { tr '\\0' '\\n' < /proc/$p/environ; } 2>/dev/null
  { tr '\\0' ' ' < /proc/$p/cmdline; } 2>/dev/null
  echo
  p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)
done
`;

/** A check's or handler's view of its ancestors, once `path` is written; asserts the walk reached the daemon and its helper. */
async function snooped(path: string, daemonPid: number): Promise<string> {
  const text = await eventually(
    async () => (existsSync(path) ? readFileSync(path, 'utf8') : ''),
    (t) => t.includes(`== pid ${daemonPid}\n`),
    20_000,
  );
  assert.ok(text.includes(`== pid ${daemonPid}\n`), `the walk up from the command reached the daemon (${daemonPid}): ${text.slice(0, 400)}`);
  assert.match(text, /spawner-host\.js/, 'and the spawner helper on the way');
  return text;
}

function assertNone(text: string, secrets: Record<string, string>, where: string): void {
  for (const [name, value] of Object.entries(secrets)) assert.ok(!text.includes(value), `${where} shows ${name}`);
}

/** A v2 backend double that records the Authorization header of each PUT. */
async function backend(t: { after(fn: () => void | Promise<void>): void }): Promise<{ url: string; keys: string[] }> {
  const keys: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    keys.push(String(req.headers.authorization));
    req.resume();
    req.on('end', () => res.writeHead(201).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, keys };
}

test('a check and a pipe handler find no daemon credential up their parent chain (helper and daemon: /proc environ and cmdline), and the daemon still uses them', async (t) => {
  const bridge = await backend(t);
  const secrets = {
    CHECKBRIDGE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    PGPASSWORD: unique('pg-password'),
    CHECKBRIDGE_VAULT_TOKEN: unique('some-token'),
    RABBITMQ_URL: unique('amqp-password'),
    '--bridge-api-key': unique('bridge-key'),
  };
  const root = makeTree({ 'snoop.sh': SNOOP, 'conf.d/client.json': { client: { name: 'cred-host', address: '127.0.0.1', subscriptions: ['t'] } } });
  writeTree(root, {
    'conf.d/checks.json': { checks: { snoop: { command: `sh ${root}/snoop.sh > ${root}/check.txt`, subscribers: ['t'], interval: 3600, publish: false } } },
  });
  const env = {
    PGPASSWORD: secrets.PGPASSWORD,
    CHECKBRIDGE_VAULT_TOKEN: secrets.CHECKBRIDGE_VAULT_TOKEN,
    RABBITMQ_URL: `amqp://guest:${secrets.RABBITMQ_URL}@127.0.0.1:1/`,
  };
  const instance = await startInstance(root, ['--bridge-url', bridge.url, '--bridge-api-key', secrets['--bridge-api-key']], env);
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const { daemon, api, v2 } = instance;
  const pid = daemon.proc.pid!;
  const admin = `Bearer ${await adminToken(v2)}`;

  // A legacy check.
  assert.equal((await postJson(`${api}/request`, { check: 'snoop' })).status, 202);
  assertNone(await snooped(join(root, 'check.txt'), pid), secrets, 'a check');

  // A v2 pipe handler, which anyone with `edit` in a namespace may write.
  assert.equal(
    (await call(`${v2}/api/core/v2/namespaces/default/handlers/snoop`, 'PUT', admin, { type: 'pipe', command: `sh ${root}/snoop.sh > ${root}/handler.txt` }))
      .status,
    201,
  );
  const event = {
    entity: { entity_class: 'proxy', metadata: { name: 'e' } },
    check: { metadata: { name: 'c' }, status: 2, interval: 60, handlers: ['snoop'] },
  };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/e/c`, 'PUT', admin, event)).status, 201);
  assertNone(await snooped(join(root, 'handler.txt'), pid), secrets, 'a pipe handler');

  // Read directly too: the daemon's start environment and command line no longer hold the values, only the names.
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
  assertNone(environ, secrets, `/proc/${pid}/environ`);
  assert.match(environ, /\0PGPASSWORD=/, 'the variable is still named there, its value blanked');
  assertNone(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), secrets, `/proc/${pid}/cmdline`);

  // And the daemon still has them: the admin password signed in above; the bridge key reaches the backend.
  await eventually(
    async () => bridge.keys.length,
    (n) => n > 0,
    15_000,
  );
  assert.equal(bridge.keys[0], `Key ${secrets['--bridge-api-key']}`);
  const warning = await daemon.waitFor((l) => l.level === 40 && /--bridge-api-key puts a secret on the command line/.test(String(l.msg)));
  assert.match(String(warning.msg), /--bridge-api-key-file FILE, CHECKBRIDGE_BRIDGE_API_KEY_FILE or CHECKBRIDGE_BRIDGE_API_KEY instead/);
  assert.equal((await getJson(`${api}/info`)).status, 200);
});

test('on PostgreSQL with passwords: PGPASSWORD and a DSN file still reach the database (the store, a PostgresConfig made later) while no command finds them', async (t) => {
  const server = await postgresFor(t, { hba: ['host all all 127.0.0.1/32 scram-sha-256'] });
  if (!server) return;
  const secrets = { 'the store DSN password': unique('store-pw'), PGPASSWORD: unique('events-pw') };
  await server.query(`CREATE ROLE cbstore LOGIN PASSWORD '${secrets['the store DSN password']}'`);
  await server.query(`CREATE ROLE cbevents LOGIN PASSWORD '${secrets.PGPASSWORD}'`);
  await server.query('CREATE DATABASE cbstore OWNER cbstore');
  await server.query('CREATE DATABASE cbevents OWNER cbevents');
  const root = makeTree({
    'snoop.sh': SNOOP,
    'conf.d/client.json': { client: { name: 'pg-cred-host', address: '127.0.0.1', subscriptions: ['t'] } },
    'store.dsn': `postgres://cbstore:${secrets['the store DSN password']}@127.0.0.1:${server.port}/cbstore\n`,
  });
  writeTree(root, {
    'conf.d/checks.json': { checks: { snoop: { command: `sh ${root}/snoop.sh > ${root}/check.txt`, subscribers: ['t'], interval: 3600, publish: false } } },
  });
  // PGPASSWORD is for whatever a DSN leaves out: here the cbevents role's, read once at start.
  const instance = await startInstance(root, ['--store-dsn-file', join(root, 'store.dsn')], { PGPASSWORD: secrets.PGPASSWORD, PGUSER: 'cbevents' });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const { daemon, api, v2 } = instance;
  const storeLine = await daemon.waitFor((l) => l.engine === 'postgres');
  assert.match(String(storeLine.store), /^postgres:\/\/cbstore:REDACTED@127\.0\.0\.1:\d+\/cbstore$/, 'the store is on PostgreSQL, password redacted');
  assert.equal(
    daemon.logs.some((l) => /puts a secret on the command line/.test(String(l.msg))),
    false,
    'a file form draws no warning',
  );

  // A PostgresConfig stored now, strict (it connects before it is stored), whose DSN names no user and no password.
  const auth = `Bearer ${await adminToken(v2)}`;
  const config = {
    type: 'PostgresConfig',
    api_version: 'store/v1',
    metadata: { name: 'main' },
    spec: { dsn: `host=127.0.0.1 port=${server.port} dbname=cbevents`, strict: true },
  };
  const stored = await call(`${v2}/api/enterprise/store/v1/provider/main`, 'PUT', auth, config);
  assert.equal(stored.status, 201, JSON.stringify(stored.body));
  const health = await eventually(
    () => getJson(`${v2}/health`),
    (r) => r.body.PostgresHealth?.[0]?.Healthy === true,
  );
  assert.deepEqual(health.body.PostgresHealth, [{ Name: 'main', Active: true, Healthy: true }]);

  assert.equal((await postJson(`${api}/request`, { check: 'snoop' })).status, 202);
  const seen = await snooped(join(root, 'check.txt'), daemon.proc.pid!);
  assertNone(seen, secrets, 'a check');
  assert.match(seen, /PGUSER=cbevents/, 'ordinary variables are still there');
  assertNone(readFileSync(`/proc/${daemon.proc.pid}/environ`, 'utf8'), secrets, "the daemon's start environment");
});

test("the Env secrets provider refuses the daemon's own credentials by name, with the reason, and still serves other variables", async (t) => {
  const uses = { ordinary: 'CB_TEST_ORDINARY', 'admin-pw': 'CHECKBRIDGE_ADMIN_PASSWORD', 'pg-pw': 'PGPASSWORD', 'unset-token': 'CHECKBRIDGE_UNSET_TOKEN' };
  const checks = Object.fromEntries(
    Object.keys(uses).map((secret) => [
      `use-${secret}`,
      { command: 'echo "got:$VALUE"', subscribers: ['t'], interval: 3600, publish: false, secrets: [{ name: 'VALUE', secret }] },
    ]),
  );
  const root = makeTree({
    'conf.d/client.json': { client: { name: 'env-host', address: '127.0.0.1', subscriptions: ['t'] } },
    'conf.d/checks.json': { checks },
  });
  const pgPassword = unique('pg-password');
  const instance = await startInstance(root, [], { CB_TEST_ORDINARY: unique('ordinary'), PGPASSWORD: pgPassword });
  t.after(async () => {
    await instance.daemon.stop('SIGKILL');
    removeTree(root);
  });
  const { v2, api } = instance;
  const auth = `Bearer ${await adminToken(v2)}`;
  for (const [name, id] of Object.entries(uses)) {
    const reply = await call(`${v2}/api/enterprise/secrets/v1/namespaces/default/secrets/${name}`, 'PUT', auth, {
      type: 'Secret',
      api_version: 'secrets/v1',
      metadata: { name },
      spec: { provider: 'env', id },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
  }
  // Each check's output is what it was given (a served value is redacted before it is stored).
  const ran = async (secret: string): Promise<string> => {
    assert.equal((await postJson(`${api}/request`, { check: `use-${secret}` })).status, 202);
    const result = await eventually(
      () => getJson(`${api}/results/env-host/use-${secret}`),
      (r) => r.status === 200,
      15_000,
    );
    assert.equal(result.status, 200, `use-${secret} ran`);
    return String(result.body.check.output);
  };
  assert.equal(await ran('ordinary'), 'got:REDACTED\n', 'an ordinary variable is served');
  for (const [secret, id] of Object.entries(uses).slice(1)) {
    const output = await ran(secret);
    assert.equal(
      output,
      `Unable to resolve secret "${secret}" (VALUE) from provider "env": the environment variable ${id} is one of checkbridge's own credentials, which the env provider does not serve`,
    );
    assert.ok(!output.includes(ADMIN_PASSWORD) && !output.includes(pgPassword));
  }
});
