// Issue 27 items 2, 10 and 22: what a check or a handler can read of the daemon's credentials, up its parent chain.
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
  const text = await eventually(async () => (existsSync(path) ? readFileSync(path, 'utf8') : ''), (t) => t.includes(`== pid ${daemonPid}\n`), 20_000);
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
  writeTree(root, { 'conf.d/checks.json': { checks: { snoop: { command: `sh ${root}/snoop.sh > ${root}/check.txt`, subscribers: ['t'], interval: 3600, publish: false } } } });
  const env = { PGPASSWORD: secrets.PGPASSWORD, CHECKBRIDGE_VAULT_TOKEN: secrets.CHECKBRIDGE_VAULT_TOKEN, RABBITMQ_URL: `amqp://guest:${secrets.RABBITMQ_URL}@127.0.0.1:1/` };
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
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/handlers/snoop`, 'PUT', admin, { type: 'pipe', command: `sh ${root}/snoop.sh > ${root}/handler.txt` })).status, 201);
  const event = { entity: { entity_class: 'proxy', metadata: { name: 'e' } }, check: { metadata: { name: 'c' }, status: 2, interval: 60, handlers: ['snoop'] } };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/e/c`, 'PUT', admin, event)).status, 201);
  assertNone(await snooped(join(root, 'handler.txt'), pid), secrets, 'a pipe handler');

  // Read directly too: the daemon's start environment and command line no longer hold the values, only the names.
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
  assertNone(environ, secrets, `/proc/${pid}/environ`);
  assert.match(environ, /\0PGPASSWORD=/, 'the variable is still named there, its value blanked');
  assertNone(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), secrets, `/proc/${pid}/cmdline`);

  // And the daemon still has them: the admin password signed in above; the bridge key reaches the backend.
  await eventually(async () => bridge.keys.length, (n) => n > 0, 15_000);
  assert.equal(bridge.keys[0], `Key ${secrets['--bridge-api-key']}`);
  const warning = await daemon.waitFor((l) => l.level === 40 && /--bridge-api-key puts a secret on the command line/.test(String(l.msg)));
  assert.match(String(warning.msg), /--bridge-api-key-file FILE, CHECKBRIDGE_BRIDGE_API_KEY_FILE or CHECKBRIDGE_BRIDGE_API_KEY instead/);
  assert.equal((await getJson(`${api}/info`)).status, 200);
});
