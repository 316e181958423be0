// What the daemon does not start before it is needed: the expression sandbox's threads wait for the first filter, the
// drivers and codecs for their first use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDaemon } from '../helpers/daemon.js';
import { makeTree, removeTree } from '../helpers/tree.js';
import { startInstance } from '../helpers/instance.js';
import { adminToken, call } from '../api/v2/v2-helpers.js';
import { eventually } from '../helpers/wait.js';

const threads = (pid: number) => readdirSync(`/proc/${pid}/task`).length;

test('rest: no sandbox thread until the first filter expression, which then decides as before', async (t) => {
  const root = makeTree({ 'conf.d/a.json': { client: { name: 'rest', address: '127.0.0.1', subscriptions: [] } } });
  t.after(() => removeTree(root));
  const { daemon, v2 } = await startInstance(root, ['--log-level', 'debug']);
  t.after(() => daemon.stop());
  const auth = `Bearer ${await adminToken(v2)}`;
  const ns = `${v2}/api/core/v2/namespaces/default`;
  const send = (method: string, path: string, body?: unknown) => call(`${ns}${path}`, method, auth, body);
  assert.equal(
    (await send('PUT', '/filters/critical', { metadata: { name: 'critical' }, action: 'allow', expressions: ['event.check.status == 2'] })).status,
    201,
  );
  assert.equal((await send('PUT', '/handlers/h', { type: 'pipe', command: 'cat > /dev/null', timeout: 10 })).status, 201);
  const workflow = {
    name: 'w',
    filters: [{ name: 'critical', type: 'EventFilter', api_version: 'core/v2' }],
    handler: { name: 'h', type: 'Handler', api_version: 'core/v2' },
  };
  assert.equal((await send('PUT', '/pipelines/p', { workflows: [workflow] })).status, 201);
  const atRest = threads(daemon.proc.pid!);
  assert.equal(daemon.logs.filter((l) => l.msg === 'expression sandbox loaded for the first evaluation').length, 0, 'the sandbox loaded at rest');

  const put = (check: string, status: number) =>
    send('PUT', `/events/e1/${check}`, {
      entity: { entity_class: 'proxy', metadata: { name: 'e1' } },
      check: { metadata: { name: check }, interval: 60, status, output: 'x' },
      pipelines: [{ api_version: 'core/v2', type: 'Pipeline', name: 'p' }],
    });
  // The first event waits for the sandbox instead of being judged without it: a status 0 is filtered out, a 2 handled.
  assert.equal((await put('ok', 0)).status, 201);
  assert.equal((await put('bad', 2)).status, 201);
  await daemon.waitFor((l) => l.msg === 'event was filtered' && l.handler === 'h', 30_000);
  await daemon.waitFor((l) => l.msg === 'handler output' && l.handler === 'h', 30_000);
  assert.equal(daemon.logs.filter((l) => l.msg === 'filter expression failed').length, 0);
  await daemon.waitFor((l) => l.msg === 'expression sandbox loaded for the first evaluation', 30_000);
  // The active thread and its spare are started now, not at start.
  const more = await eventually(
    async () => threads(daemon.proc.pid!),
    (n) => n >= atRest + 2,
    30_000,
  );
  assert.ok(more >= atRest + 2, `threads at rest ${atRest}, after the first filter ${more}`);
});

// Packages a daemon on the embedded store, the local transport and JSON logs, with no agent and no scrape, never needs.
const NOT_AT_REST = [
  'pg',
  'protobufjs',
  'prom-client',
  'undici',
  'ioredis',
  'amqplib',
  'pino-pretty',
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'ldapts',
  'openid-client',
  'oauth4webapi',
  'tar',
  'acorn',
];

test('rest: a daemon that served /health loaded none of the drivers and codecs it has not used, and gave back its start-up memory', async (t) => {
  const root = makeTree({ 'conf.d/a.json': { client: { name: 'rest', address: '127.0.0.1', subscriptions: [] } } });
  t.after(() => removeTree(root));
  const out = join(root, 'loaded.json');
  const ports = ['--socket-port', '0', '--api-port', '0', '--agent-port', '0', '--v2-port', '0', '--agentd-port', '0'];
  const daemon = startDaemon(['run', join(root, 'conf.d'), '--state-dir', join(root, 'state'), '--log-level', 'debug', ...ports], {
    env: { CHECKBRIDGE_ADMIN_PASSWORD: 'rest-admin-password', CHECKBRIDGE_TEST_LOADED_OUT: out },
    nodeArgs: ['--import', fileURLToPath(new URL('../helpers/loaded-modules.js', import.meta.url))],
  });
  t.after(() => daemon.stop('SIGKILL'));
  await daemon.waitFor((l) => l.msg === 'checkbridge running', 60_000);
  const v2 = await daemon.waitFor((l) => l.msg === 'v2 API listening');
  assert.equal((await fetch(`http://${String(v2.address)}/health`)).status, 200);
  // Start-up's young generation (grown for the burst of loading) is given back once the daemon has been quiet a while.
  const settled = await daemon.waitFor((l) => l.msg === "start-up's memory collected", 30_000);
  assert.ok((settled.after as { young_mb: number }).young_mb <= 2, JSON.stringify(settled));
  assert.equal(await daemon.stop(), 0);
  const packages = new Set((JSON.parse(readFileSync(out, 'utf8')) as string[]).map((file) => /.*node_modules\/((@[^/]+\/)?[^/]+)/.exec(file)?.[1]));
  assert.deepEqual(
    NOT_AT_REST.filter((name) => packages.has(name)),
    [],
  );
  // The helper saw the daemon's packages at all: fastify serves /health; jose (an ES module) signs its tokens.
  assert.ok(packages.has('fastify') && packages.has('jose'), [...packages].join(' '));
});
