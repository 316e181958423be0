// The real sensuctl 6.12 against the v2 API: every verb docs/sensu-go.md lists, each with its own HOME and instance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';
import { sensuctlSkipReason, sensuctlFor, outputOf, ok, type Sensuctl } from '../../helpers/sensuctl.js';
import { ADMIN_PASSWORD } from '../../helpers/instance.js';

const HOST = { 'conf.d/client.json': { client: { name: 'sensuctl-host', address: '127.0.0.1', subscriptions: [] } } };
const skip = sensuctlSkipReason();
import type { Json } from '../../../src/json.js';

/** An instance and a sensuctl configured against it as the admin. */
async function setUp(t: Parameters<typeof instanceFor>[0]) {
  const instance = await instanceFor(t, HOST);
  const sensuctl = sensuctlFor(t);
  ok(sensuctl, 'configure', '-n', '--url', instance.v2, '--username', 'admin', '--password', ADMIN_PASSWORD, '--namespace', 'default');
  return { ...instance, sensuctl, admin: `Bearer ${await adminToken(instance.v2)}` };
}

const json = (sensuctl: Sensuctl, ...args: string[]) => JSON.parse(ok(sensuctl, ...args, '--format', 'json')) as any;
const names = (items: Json[]) => items.map((i) => i.metadata?.name ?? i.name ?? i.username).sort();

const CHECK = (name: string, namespace = 'default') => ({
  type: 'CheckConfig',
  api_version: 'core/v2',
  metadata: { name, namespace },
  spec: { command: 'true', interval: 60, publish: true, subscriptions: ['linux'] },
});
const HANDLER = (name: string) => ({
  type: 'Handler',
  api_version: 'core/v2',
  metadata: { name, namespace: 'default' },
  spec: { type: 'pipe', command: 'cat' },
});
const FILTER = (name: string) => ({
  type: 'EventFilter',
  api_version: 'core/v2',
  metadata: { name, namespace: 'default' },
  spec: { action: 'allow', expressions: ['event.check.status == 2'] },
});

test(
  'sensuctl: create -f (files, wrapped JSON, a directory with -r) and delete -f (multi-document files) create and delete every resource',
  { skip },
  async (t) => {
    const { root, sensuctl } = await setUp(t);
    const dir = join(root, 'resources');
    mkdirSync(join(dir, 'nested'), { recursive: true });
    // Wrapped JSON, several documents in one file; YAML in a subdirectory.
    writeFileSync(join(dir, 'one.json'), [CHECK('c1'), HANDLER('h1')].map((r) => JSON.stringify(r)).join('\n'));
    writeFileSync(
      join(dir, 'nested', 'two.yaml'),
      'type: EventFilter\napi_version: core/v2\nmetadata:\n  name: f1\n  namespace: default\nspec:\n  action: allow\n  expressions: ["event.check.status == 2"]\n---\ntype: Mutator\napi_version: core/v2\nmetadata:\n  name: m1\n  namespace: default\nspec:\n  command: cat\n',
    );
    ok(sensuctl, 'create', '-f', join(dir, 'one.json'));
    assert.deepEqual(names(json(sensuctl, 'check', 'list')), ['c1']);
    ok(sensuctl, 'create', '-r', '-f', dir);
    assert.deepEqual(names(json(sensuctl, 'filter', 'list')), ['f1']);
    assert.deepEqual(names(json(sensuctl, 'mutator', 'list')), ['m1']);
    // sensuctl sends its DELETEs with `Content-Type: application/json` and no body.
    ok(sensuctl, 'delete', '-f', join(dir, 'one.json'));
    assert.deepEqual(json(sensuctl, 'check', 'list'), []);
    assert.deepEqual(json(sensuctl, 'handler', 'list'), []);
    ok(sensuctl, 'delete', '-f', join(dir, 'nested', 'two.yaml'));
    assert.deepEqual(json(sensuctl, 'filter', 'list'), []);
    assert.deepEqual(json(sensuctl, 'mutator', 'list'), []);
    ok(sensuctl, 'check', 'create', 'c2', '--command', 'true', '--interval', '10', '--subscriptions', 'linux');
    ok(sensuctl, 'check', 'delete', 'c2', '--skip-confirm');
    assert.match(outputOf(sensuctl('check', 'delete', 'c2', '--skip-confirm')), /not found/);
  },
);

test('sensuctl: list and info of every kind in tabular, json, wrapped-json and yaml; --chunk-size pages', { skip }, async (t) => {
  const { v2, root, sensuctl, admin } = await setUp(t);
  const file = join(root, 'all.json');
  writeFileSync(file, [...Array.from({ length: 7 }, (_, i) => CHECK(`c${i}`)), HANDLER('h1'), FILTER('f1')].map((r) => JSON.stringify(r)).join('\n'));
  ok(sensuctl, 'create', '-f', file);
  const event = {
    entity: { entity_class: 'proxy', metadata: { name: 'web-1' } },
    check: { metadata: { name: 'c0' }, status: 2, interval: 60, output: 'down' },
  };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/web-1/c0`, 'PUT', admin, event)).status, 201);
  const lists = [
    'check',
    'handler',
    'filter',
    'mutator',
    'hook',
    'asset',
    'entity',
    'event',
    'silenced',
    'namespace',
    'user',
    'role',
    'role-binding',
    'cluster-role',
    'cluster-role-binding',
    'api-key',
  ];
  for (const kind of lists) {
    for (const format of ['tabular', 'json', 'wrapped-json', 'yaml']) {
      const run = sensuctl(kind, 'list', '--format', format);
      assert.equal(run.status, 0, `${kind} list --format ${format}: ${outputOf(run)}`);
    }
  }
  for (const [kind, ...name] of [
    ['check', 'c3'],
    ['handler', 'h1'],
    ['filter', 'f1'],
    ['entity', 'web-1'],
    ['event', 'web-1', 'c0'],
    ['cluster-role', 'admin'],
  ]) {
    for (const format of ['tabular', 'json', 'wrapped-json', 'yaml']) {
      const run = sensuctl(kind!, 'info', ...name, '--format', format);
      assert.equal(run.status, 0, `${kind} info ${name.join(' ')} --format ${format}: ${outputOf(run)}`);
    }
  }
  assert.equal(json(sensuctl, 'check', 'info', 'c3').metadata.name, 'c3');
  // Pages of 2 through Sensu-Continue: all 7, once each.
  assert.deepEqual(names(json(sensuctl, 'check', 'list', '--chunk-size', '2')), ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
});

test('sensuctl: dump all and re-create from it; event resolve and delete', { skip }, async (t) => {
  const { v2, root, sensuctl, admin } = await setUp(t);
  ok(sensuctl, 'check', 'create', 'disk', '--command', 'true', '--interval', '60', '--subscriptions', 'linux');
  ok(sensuctl, 'handler', 'create', 'slack', '--type', 'pipe', '--command', 'cat');
  const dump = join(root, 'dump.yaml');
  writeFileSync(dump, ok(sensuctl, 'dump', 'core/v2.CheckConfig,core/v2.Handler', '--format', 'yaml'));
  ok(sensuctl, 'delete', '-f', dump);
  assert.deepEqual(json(sensuctl, 'check', 'list'), []);
  ok(sensuctl, 'create', '-f', dump);
  assert.deepEqual(names(json(sensuctl, 'check', 'list')), ['disk']);
  assert.deepEqual(names(json(sensuctl, 'handler', 'list')), ['slack']);

  const event = {
    entity: { entity_class: 'proxy', metadata: { name: 'web-1' } },
    check: { metadata: { name: 'disk' }, status: 2, interval: 60, output: 'full' },
  };
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/web-1/disk`, 'PUT', admin, event)).status, 201);
  ok(sensuctl, 'event', 'resolve', 'web-1', 'disk');
  assert.equal(json(sensuctl, 'event', 'info', 'web-1', 'disk').check.status, 0);
  ok(sensuctl, 'event', 'delete', 'web-1', 'disk', '--skip-confirm');
  assert.equal((await call(`${v2}/api/core/v2/namespaces/default/events/web-1/disk`, 'GET', admin)).status, 404);
});

test('sensuctl: silenced create names the entry subscription:check, sets begin and expire_at; list, info, delete', { skip }, async (t) => {
  const { v2, sensuctl, admin } = await setUp(t);
  const before = Math.floor(Date.now() / 1000);
  ok(sensuctl, 'silenced', 'create', '--subscription', 'linux', '--check', 'foo', '--reason', 'maintenance', '--expire', '600');
  ok(sensuctl, 'silenced', 'create', '--check', 'bar', '--reason', 'forever');
  assert.deepEqual(names(json(sensuctl, 'silenced', 'list')), ['*:bar', 'linux:foo']);
  const entry = json(sensuctl, 'silenced', 'info', 'linux:foo');
  assert.ok(entry.begin >= before, `begin is now: ${entry.begin}`);
  assert.equal(entry.expire_at, entry.begin + 600);
  assert.equal(entry.reason, 'maintenance');
  assert.equal(json(sensuctl, 'silenced', 'info', '*:bar').expire_at, 0, 'no expire: no expiration');
  ok(sensuctl, 'silenced', 'delete', 'linux:foo', '--skip-confirm');
  ok(sensuctl, 'silenced', 'delete', '*:bar', '--skip-confirm');
  assert.deepEqual(json(sensuctl, 'silenced', 'list'), []);
  // A begin in the future is kept and expire counts from it.
  assert.equal(
    (await call(`${v2}/api/core/v2/namespaces/default/silenced`, 'POST', admin, { subscription: 'db', begin: before + 3600, expire: 60 })).status,
    201,
  );
  const later = (await call(`${v2}/api/core/v2/namespaces/default/silenced/db:*`, 'GET', admin)).body;
  assert.deepEqual([later.begin, later.expire_at], [before + 3600, before + 3660]);
  assert.match(
    (await call(`${v2}/api/core/v2/namespaces/default/silenced`, 'POST', admin, { subscription: 'db', expire: 'soon' })).body.message,
    /^json: cannot unmarshal string into Go struct field Silenced.expire of type int64$/,
  );
});

test('sensuctl: check execute is accepted (202 issued) for a check that exists; its body and errors', { skip }, async (t) => {
  const { v2, sensuctl, admin, daemon } = await setUp(t);
  ok(sensuctl, 'check', 'create', 'disk', '--command', 'true', '--interval', '60', '--subscriptions', 'linux');
  assert.match(ok(sensuctl, 'check', 'execute', 'disk', '--reason', 'testing', '--subscriptions', 'web,db'), /Issued/);
  const logged = await daemon.waitFor((l) => String(l.msg).startsWith('check execution requested'));
  assert.deepEqual([logged.check, logged.subscriptions, logged.reason, logged.creator], ['disk', ['web', 'db'], 'testing', 'admin']);
  assert.match(outputOf(sensuctl('check', 'execute', 'nope')), /not found/);
  const execute = (body: unknown, check = 'disk', namespace = 'default') =>
    call(`${v2}/api/core/v2/namespaces/${namespace}/checks/${check}/execute`, 'POST', admin, body);
  const issued = await execute({ reason: 'api' });
  assert.equal(issued.status, 202);
  assert.ok(Number.isInteger(issued.body.issued));
  for (const [body, message] of [
    [[], /request body must be a JSON object/],
    [{ subscriptions: 'linux' }, /subscriptions must be a list of non-empty strings/],
    [{ reason: 7 }, /reason must be a string/],
    [{ metadata: { name: 'other' } }, /does not match the name of the URI \(disk\)/],
  ] as const) {
    const refused = await execute(body);
    assert.equal(refused.status, 400, JSON.stringify(body));
    assert.match(refused.body.message, message);
  }
  assert.deepEqual((await execute({}, 'nope')).body, { message: 'not found', code: 2 });
  assert.deepEqual((await execute({}, 'disk', 'ghost')).body, { message: 'the namespace ghost does not exist', code: 2 });
});

test('sensuctl: namespace create, list, delete; --all-namespaces on every namespaced kind; dump --all-namespaces and re-create', { skip }, async (t) => {
  const { v2, root, sensuctl, admin } = await setUp(t);
  ok(sensuctl, 'namespace', 'create', 'team-a');
  assert.match(outputOf(sensuctl('namespace', 'create', 'team-a')), /already exists/);
  assert.deepEqual(names(json(sensuctl, 'namespace', 'list')), ['default', 'team-a']);
  // Writes into a namespace that does not exist are refused naming it (Sensu Go's message).
  assert.match(
    outputOf(sensuctl('check', 'create', 'x', '--command', 'true', '--interval', '10', '--subscriptions', 'linux', '--namespace', 'nope')),
    /the namespace nope does not exist/,
  );
  for (const namespace of ['default', 'team-a']) {
    ok(sensuctl, 'check', 'create', `check-${namespace}`, '--command', 'true', '--interval', '60', '--subscriptions', 'linux', '--namespace', namespace);
    ok(sensuctl, 'handler', 'create', `handler-${namespace}`, '--type', 'pipe', '--command', 'cat', '--namespace', namespace);
    ok(sensuctl, 'silenced', 'create', '--subscription', namespace, '--reason', 'r', '--namespace', namespace);
    ok(sensuctl, 'role', 'create', `role-${namespace}`, '--verb', 'get', '--resource', 'checks', '--namespace', namespace);
  }
  assert.deepEqual(names(json(sensuctl, 'check', 'list', '--all-namespaces')), ['check-default', 'check-team-a']);
  assert.deepEqual(names(json(sensuctl, 'handler', 'list', '--all-namespaces')), ['handler-default', 'handler-team-a']);
  assert.deepEqual(names(json(sensuctl, 'silenced', 'list', '--all-namespaces')), ['default:*', 'team-a:*']);
  assert.deepEqual(names(json(sensuctl, 'role', 'list', '--all-namespaces')), ['role-default', 'role-team-a']);
  for (const path of ['checks', 'handlers', 'filters', 'mutators', 'hooks', 'assets', 'entities', 'silenced', 'pipelines', 'roles', 'rolebindings']) {
    assert.equal((await call(`${v2}/api/core/v2/${path}`, 'GET', admin)).status, 200, path);
  }
  const paged = await call(`${v2}/api/core/v2/checks?limit=1`, 'GET', admin);
  assert.deepEqual([paged.body.length, Boolean(paged.headers.get('sensu-continue'))], [1, true]);

  // The documented backup: every namespaced resource is in it, and it re-creates them.
  const dump = join(root, 'backup.yaml');
  writeFileSync(dump, ok(sensuctl, 'dump', 'core/v2.CheckConfig,core/v2.Handler,core/v2.Silenced,core/v2.Role', '--all-namespaces', '--format', 'yaml'));
  ok(sensuctl, 'delete', '-f', dump);
  assert.deepEqual(json(sensuctl, 'check', 'list', '--all-namespaces'), []);
  ok(sensuctl, 'create', '-f', dump);
  assert.deepEqual(names(json(sensuctl, 'check', 'list', '--all-namespaces')), ['check-default', 'check-team-a']);
  assert.deepEqual(names(json(sensuctl, 'silenced', 'list', '--all-namespaces')), ['default:*', 'team-a:*']);
  // A namespace holding resources stays; emptied, it goes.
  assert.match(outputOf(sensuctl('namespace', 'delete', 'team-a', '--skip-confirm')), /referenced by/);
  for (const [kind, name] of [
    ['check', 'check-team-a'],
    ['handler', 'handler-team-a'],
    ['silenced', 'team-a:*'],
    ['role', 'role-team-a'],
  ])
    ok(sensuctl, kind!, 'delete', name!, '--skip-confirm', '--namespace', 'team-a');
  ok(sensuctl, 'namespace', 'delete', 'team-a', '--skip-confirm');
  assert.deepEqual(names(json(sensuctl, 'namespace', 'list')), ['default']);
});

test('sensuctl: api-key grant, list (whole IDs, never the key) and revoke of a listed key', { skip }, async (t) => {
  const { v2, sensuctl } = await setUp(t);
  const location = ok(sensuctl, 'api-key', 'grant', 'admin');
  const key = /apikeys\/([0-9a-f-]{36})/.exec(location)![1]!;
  const listed = json(sensuctl, 'api-key', 'list');
  assert.equal(listed.length, 1);
  const id = listed[0].metadata.name as string;
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.notEqual(id, key);
  assert.match(ok(sensuctl, 'api-key', 'list'), new RegExp(id));
  assert.equal(json(sensuctl, 'api-key', 'info', id).username, 'admin');
  assert.equal((await getJson(`${v2}/api/core/v2/namespaces`, { headers: { authorization: `Key ${key}` } })).status, 200);
  ok(sensuctl, 'api-key', 'revoke', listed[0].metadata.name, '--skip-confirm');
  assert.deepEqual(json(sensuctl, 'api-key', 'list'), []);
  assert.equal((await getJson(`${v2}/api/core/v2/namespaces`, { headers: { authorization: `Key ${key}` } })).status, 401);
});

test('sensuctl: user create, change-password, disable, reinstate; role and role-binding create and their effect', { skip }, async (t) => {
  const { v2, sensuctl } = await setUp(t);
  ok(sensuctl, 'user', 'create', 'dev', '--password', 'dev-pass-1', '--groups', 'devs');
  ok(sensuctl, 'role', 'create', 'check-reader', '--verb', 'get,list', '--resource', 'checks');
  ok(sensuctl, 'role-binding', 'create', 'devs-read', '--role', 'check-reader', '--group', 'devs');
  ok(sensuctl, 'check', 'create', 'disk', '--command', 'true', '--interval', '60', '--subscriptions', 'linux');
  const dev = sensuctlFor(t);
  ok(dev, 'configure', '-n', '--url', v2, '--username', 'dev', '--password', 'dev-pass-1', '--namespace', 'default');
  assert.deepEqual(names(json(dev, 'check', 'list')), ['disk'], 'the binding grants reading checks');
  assert.notEqual(dev('handler', 'list').status, 0, 'and nothing else');
  assert.notEqual(dev('check', 'delete', 'disk', '--skip-confirm').status, 0);
  // Their own password: the current one is checked, the new one arrives as a bcrypt hash.
  assert.match(outputOf(dev('user', 'change-password', '--current-password', 'wrong-pass', '--new-password', 'dev-pass-2')), /the current password is wrong/);
  ok(dev, 'user', 'change-password', '--current-password', 'dev-pass-1', '--new-password', 'dev-pass-2');
  const basic = (password: string) => ({ authorization: 'Basic ' + Buffer.from(`dev:${password}`).toString('base64') });
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('dev-pass-2') })).status, 200);
  // A cluster admin resets it (sensuctl sends a bcrypt hash to reset_password).
  ok(sensuctl, 'user', 'reset-password', 'dev', '--password', 'dev-pass-3');
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('dev-pass-3') })).status, 200);
  ok(sensuctl, 'user', 'disable', 'dev', '--skip-confirm');
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('dev-pass-3') })).status, 401);
  ok(sensuctl, 'user', 'reinstate', 'dev');
  assert.equal((await getJson(`${v2}/auth`, { headers: basic('dev-pass-3') })).status, 200);
  ok(sensuctl, 'user', 'add-group', 'dev', 'ops');
  ok(sensuctl, 'user', 'remove-group', 'dev', 'devs');
  assert.deepEqual(json(sensuctl, 'user', 'list').find((u: Json) => u.username === 'dev').groups, ['ops']);
  ok(sensuctl, 'user', 'remove-groups', 'dev');
  assert.deepEqual(json(sensuctl, 'user', 'list').find((u: Json) => u.username === 'dev').groups ?? [], []);
  // A user YAML carrying a bcrypt password_hash (`sensuctl user hash-password`) is accepted as Sensu Go accepts it.
  const hash = ok(sensuctl, 'user', 'hash-password', 'ops-pass-1').trim();
  assert.ok(bcrypt.compareSync('ops-pass-1', hash));
  const { root } = { root: sensuctl.home };
  writeFileSync(
    join(root, 'ops.yaml'),
    `type: User\napi_version: core/v2\nmetadata:\n  name: ops\nspec:\n  username: ops\n  password_hash: "${hash}"\n  groups: []\n  disabled: false\n`,
  );
  ok(sensuctl, 'create', '-f', join(root, 'ops.yaml'));
  assert.equal((await getJson(`${v2}/auth`, { headers: { authorization: 'Basic ' + Buffer.from('ops:ops-pass-1').toString('base64') } })).status, 200);
});

test('sensuctl: tessen starts opted out, keeps the choice made; GET /version answers like Sensu Go, without credentials', { skip }, async (t) => {
  const { v2, sensuctl } = await setUp(t);
  assert.match(ok(sensuctl, 'tessen', 'info'), /Opt-Out: true/);
  ok(sensuctl, 'tessen', 'opt-in');
  assert.match(ok(sensuctl, 'tessen', 'info'), /Opt-Out: false/);
  ok(sensuctl, 'tessen', 'opt-out', '--skip-confirm');
  assert.match(ok(sensuctl, 'tessen', 'info'), /Opt-Out: true/);
  const version = await getJson(`${v2}/version`);
  assert.equal(version.status, 200);
  assert.equal(version.body.sensu_backend, '6.12.0');
  assert.equal(version.body.api_groups['core/v2'], 'v2.20.0');
});
