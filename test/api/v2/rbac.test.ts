import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instanceFor, getJson } from '../../helpers/instance.js';
import { call, adminToken } from './v2-helpers.js';

const basic = (user: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') });
const check = (name: string) => ({ metadata: { name }, command: 'true', interval: 60, subscriptions: ['x'] });

test('RBAC: built-in roles, a view user lists but cannot create, an edit user stays in its namespace, resource names, self-service', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'rbac-host', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;

  // Seeded at the first start, as Sensu Go does.
  const roles = (await call(`${core}/clusterroles`, 'GET', admin)).body as any[];
  assert.deepEqual(
    roles.map((r) => r.metadata.name),
    ['admin', 'cluster-admin', 'edit', 'system:agent', 'view'],
  );
  assert.deepEqual(roles.find((r) => r.metadata.name === 'cluster-admin').rules, [{ verbs: ['*'], resources: ['*'], resource_names: null }]);
  // The others as the real Sensu Go 6.12 serves them: its common core resources (no pipelines), no created_by.
  const CORE = ['assets', 'checks', 'entities', 'events', 'filters', 'handlers', 'hooks', 'mutators', 'silenced'];
  const rule = (verbs: string[], resources: string[]) => ({ verbs, resources, resource_names: null });
  const seeded = (name: string) => (({ rules, metadata }) => ({ rules, metadata }))(roles.find((r) => r.metadata.name === name));
  assert.deepEqual(seeded('admin'), {
    rules: [rule(['*'], [...CORE, 'roles', 'rolebindings']), rule(['get', 'list'], ['namespaces'])],
    metadata: { name: 'admin' },
  });
  assert.deepEqual(seeded('edit'), { rules: [rule(['*'], CORE), rule(['get', 'list'], ['namespaces'])], metadata: { name: 'edit' } });
  assert.deepEqual(seeded('view'), { rules: [rule(['get', 'list'], [...CORE, 'namespaces'])], metadata: { name: 'view' } });
  assert.deepEqual(seeded('system:agent'), { rules: [rule(['*'], ['events'])], metadata: { name: 'system:agent' } });
  const bindings = (await call(`${core}/clusterrolebindings`, 'GET', admin)).body as any[];
  assert.deepEqual(
    bindings.map((b) => [b.metadata.name, b.role_ref, b.subjects]),
    [
      ['cluster-admin', { type: 'ClusterRole', name: 'cluster-admin' }, [{ type: 'Group', name: 'cluster-admins' }]],
      ['system:agent', { type: 'ClusterRole', name: 'system:agent' }, [{ type: 'Group', name: 'system:agents' }]],
    ],
  );

  for (const ns of ['team-a', 'team-b']) assert.equal((await call(`${core}/namespaces/${ns}`, 'PUT', admin, { name: ns })).status, 201);
  assert.equal((await call(`${core}/namespaces/team-b/checks/b-check`, 'PUT', admin, check('b-check'))).status, 201);
  for (const [user, group] of [
    ['vera', 'viewers'],
    ['eddie', 'team-a-dev'],
    ['nora', 'nobody'],
    ['rita', 'readers'],
  ]) {
    assert.equal((await call(`${core}/users`, 'POST', admin, { username: user, password: `${user}-pass-1`, groups: [group] })).status, 201);
  }
  const token = async (user: string) => `Bearer ${(await getJson(`${v2}/auth`, { headers: basic(user, `${user}-pass-1`) })).body.access_token}`;

  // Malformed RBAC resources are 400 with the field named.
  const badRole = await call(`${core}/namespaces/team-a/roles/bad`, 'PUT', admin, { rules: [{ verbs: ['fly'], resources: ['checks'] }] });
  assert.equal(badRole.status, 400);
  assert.match(badRole.body.message, /rules\[0\]\.verbs/);
  const badBinding = await call(`${core}/clusterrolebindings/bad`, 'PUT', admin, {
    subjects: [{ type: 'Group', name: 'x' }],
    role_ref: { type: 'Role', name: 'view' },
  });
  assert.equal(badBinding.status, 400);
  assert.match(badBinding.body.message, /role_ref\.type must be ClusterRole/);

  // vera: the built-in view role everywhere.
  assert.equal(
    (
      await call(`${core}/clusterrolebindings`, 'POST', admin, {
        metadata: { name: 'viewers' },
        subjects: [{ type: 'Group', name: 'viewers' }],
        role_ref: { type: 'ClusterRole', name: 'view' },
      })
    ).status,
    201,
  );
  const vera = await token('vera');
  assert.equal((await call(`${core}/namespaces/team-b/checks`, 'GET', vera)).status, 200);
  assert.equal((await call(`${core}/namespaces/team-b/checks/b-check`, 'GET', vera)).status, 200);
  const refused = await call(`${core}/namespaces/team-b/checks/v-check`, 'PUT', vera, check('v-check'));
  assert.equal(refused.status, 403);
  assert.deepEqual(refused.body, { message: 'unauthorized to perform action: user "vera" may not update checks "v-check" in namespace "team-b"', code: 4 });
  assert.equal((await call(`${core}/namespaces/team-b/checks`, 'POST', vera, check('v-check'))).status, 403);
  assert.equal((await call(`${core}/namespaces/team-b/checks/b-check`, 'DELETE', vera)).status, 403);
  assert.equal((await call(`${core}/apikeys`, 'GET', vera)).status, 403, 'view covers nothing cluster-wide but namespaces');
  assert.equal((await call(`${core}/namespaces`, 'GET', vera)).status, 200);

  // eddie: edit, bound only in team-a.
  assert.equal(
    (
      await call(`${core}/namespaces/team-a/rolebindings/dev`, 'PUT', admin, {
        subjects: [{ type: 'Group', name: 'team-a-dev' }],
        role_ref: { type: 'ClusterRole', name: 'edit' },
      })
    ).status,
    201,
  );
  const eddie = await token('eddie');
  assert.equal((await call(`${core}/namespaces/team-a/checks/e-check`, 'PUT', eddie, check('e-check'))).status, 201);
  assert.equal((await call(`${core}/namespaces/team-a/checks/e-check`, 'GET', eddie)).body.metadata.created_by, 'eddie');
  assert.equal((await call(`${core}/namespaces/team-a/events`, 'GET', eddie)).status, 200);
  // Pipelines are not among edit's resources, as in Sensu Go: a role naming them grants them.
  const pipeline = { metadata: { name: 'p1' }, workflows: [{ name: 'w', handler: { name: 'h', type: 'Handler', api_version: 'core/v2' } }] };
  assert.equal((await call(`${core}/namespaces/team-a/pipelines/p1`, 'PUT', eddie, pipeline)).status, 403);
  const piping = { rules: [{ verbs: ['*'], resources: ['pipelines'] }] };
  assert.equal((await call(`${core}/namespaces/team-a/roles/piping`, 'PUT', admin, piping)).status, 201);
  const pipingBinding = { subjects: [{ type: 'Group', name: 'team-a-dev' }], role_ref: { type: 'Role', name: 'piping' } };
  assert.equal((await call(`${core}/namespaces/team-a/rolebindings/piping`, 'PUT', admin, pipingBinding)).status, 201);
  assert.equal((await call(`${core}/namespaces/team-a/pipelines/p1`, 'PUT', eddie, pipeline)).status, 201);
  for (const [method, path, body] of [
    ['GET', '/namespaces/team-b/checks'],
    ['GET', '/namespaces/team-b/checks/b-check'],
    ['PUT', '/namespaces/team-b/checks/e-check', check('e-check')],
    ['DELETE', '/namespaces/team-b/checks/b-check'],
    ['GET', '/namespaces/team-b/events'],
    ['GET', '/events'],
    ['PUT', '/namespaces/team-a/rolebindings/mine', { subjects: [{ type: 'User', name: 'eddie' }], role_ref: { type: 'ClusterRole', name: 'cluster-admin' } }],
    ['PUT', '/clusterrolebindings/mine', { subjects: [{ type: 'User', name: 'eddie' }], role_ref: { type: 'ClusterRole', name: 'cluster-admin' } }],
  ] as [string, string, unknown?][]) {
    const reply = await call(`${core}${path}`, method, eddie, body);
    assert.equal(reply.status, 403, `eddie ${method} ${path}: ${JSON.stringify(reply.body)}`);
    assert.equal(reply.body.code, 4);
  }
  assert.equal((await call(`${core}/namespaces/team-b/checks/e-check`, 'GET', admin)).status, 404, 'nothing was written in team-b');
  assert.equal((await call(`${core}/namespaces/team-b/checks/b-check`, 'GET', admin)).status, 200, 'nothing was deleted in team-b');

  // rita: a Role naming one resource: that one only, and no list.
  assert.equal(
    (
      await call(`${core}/namespaces/team-b/roles/one-check`, 'PUT', admin, {
        rules: [{ verbs: ['get', 'update'], resources: ['checks'], resource_names: ['b-check'] }],
      })
    ).status,
    201,
  );
  assert.equal(
    (
      await call(`${core}/namespaces/team-b/rolebindings/rita`, 'PUT', admin, {
        subjects: [{ type: 'User', name: 'rita' }],
        role_ref: { type: 'Role', name: 'one-check' },
      })
    ).status,
    201,
  );
  const rita = await token('rita');
  assert.equal((await call(`${core}/namespaces/team-b/checks/b-check`, 'GET', rita)).status, 200);
  assert.equal((await call(`${core}/namespaces/team-b/checks/b-check`, 'PUT', rita, { ...check('b-check'), interval: 30 })).status, 201);
  assert.equal((await call(`${core}/namespaces/team-b/checks/other`, 'GET', rita)).status, 403);
  assert.equal((await call(`${core}/namespaces/team-b/checks`, 'GET', rita)).status, 403);
  assert.equal((await call(`${core}/namespaces/team-a/checks/b-check`, 'GET', rita)).status, 403, 'a Role binds in its namespace only');
  // The Role's rules change: the next request sees it.
  assert.equal((await call(`${core}/namespaces/team-b/roles/one-check`, 'PUT', admin, { rules: [{ verbs: ['list'], resources: ['checks'] }] })).status, 201);
  assert.equal((await call(`${core}/namespaces/team-b/checks/b-check`, 'GET', rita)).status, 403);
  assert.equal((await call(`${core}/namespaces/team-b/checks`, 'GET', rita)).status, 200);

  // nora: no binding at all: authenticated (403, never 401) and still herself.
  const nora = await token('nora');
  assert.equal((await call(`${core}/namespaces/default/events`, 'GET', nora)).status, 403);
  assert.equal((await call(`${core}/users/nora`, 'GET', nora)).status, 200, 'a user reads themselves');
  assert.equal((await call(`${core}/users/vera`, 'GET', nora)).status, 403);
  assert.equal(
    (await call(`${core}/users/nora/password`, 'PUT', nora, { password: 'nora-pass-1', new_password: 'nora-pass-2' })).status,
    201,
    'and changes their own password',
  );
  assert.equal((await call(`${core}/users/nora/password`, 'PUT', vera, { password: 'nora-pass-2', new_password: 'taken-over' })).status, 403);
  assert.equal((await call(`${core}/users/vera/password`, 'PUT', vera, { password: 'vera-pass-1', new_password: 'vera-pass-2' })).status, 201);
  assert.equal(
    (await call(`${core}/users/nora`, 'PUT', await token('eddie'), { username: 'nora', groups: ['cluster-admins'] })).status,
    403,
    'no one grants themselves groups',
  );

  // Unbinding takes effect on the next request; cluster roles and bindings are deletable by admins.
  assert.equal((await call(`${core}/namespaces/team-a/rolebindings/dev`, 'DELETE', admin)).status, 204);
  assert.equal((await call(`${core}/namespaces/team-a/checks`, 'GET', eddie)).status, 403);
  assert.equal((await call(`${core}/clusterrolebindings/viewers`, 'DELETE', admin)).status, 204);
  assert.equal((await call(`${core}/clusterrolebindings/viewers`, 'DELETE', admin)).status, 404);
});

test('RBAC: a rule with empty or absent verbs or resources is stored, as Sensu Go stores it, grants nothing, and a namespace admin may write one', async (t) => {
  const { v2 } = await instanceFor(t, { 'conf.d/client.json': { client: { name: 'rbac-hollow', address: '127.0.0.1', subscriptions: [] } } });
  const admin = `Bearer ${await adminToken(v2)}`;
  const core = `${v2}/api/core/v2`;
  assert.equal((await call(`${core}/namespaces/team-e`, 'PUT', admin, { name: 'team-e' })).status, 201);
  assert.equal((await call(`${core}/namespaces/team-e/checks/e-check`, 'PUT', admin, check('e-check'))).status, 201);
  for (const user of ['ella', 'hank']) assert.equal((await call(`${core}/users`, 'POST', admin, { username: user, password: `${user}-pass-1` })).status, 201);
  const token = async (user: string) => `Bearer ${(await getJson(`${v2}/auth`, { headers: basic(user, `${user}-pass-1`) })).body.access_token}`;
  const bind = (name: string, user: string, roleRef: { type: string; name: string }) =>
    call(`${core}/namespaces/team-e/rolebindings/${name}`, 'PUT', admin, { subjects: [{ type: 'User', name: user }], role_ref: roleRef });
  assert.equal((await bind('ella-admin', 'ella', { type: 'ClusterRole', name: 'admin' })).status, 201);

  // Written by a namespace admin: the escalation check reads the rules without tripping on a missing list.
  const rules = [{ verbs: [], resources: ['checks'] }, { resources: ['events'] }, { verbs: ['get', 'list'], resources: [] }];
  const written = await call(`${core}/namespaces/team-e/roles/hollow`, 'PUT', await token('ella'), { rules });
  assert.equal(written.status, 201, JSON.stringify(written.body));
  const served = await call(`${core}/namespaces/team-e/roles/hollow`, 'GET', admin);
  assert.deepEqual(
    served.body.rules.map((r: { verbs: unknown; resources: unknown }) => [r.verbs, r.resources]),
    [
      [[], ['checks']],
      [null, ['events']],
      [['get', 'list'], []],
    ],
  );
  assert.equal((await bind('hank-hollow', 'hank', { type: 'Role', name: 'hollow' })).status, 201);
  const hank = await token('hank');
  for (const path of ['checks', 'checks/e-check', 'events'])
    assert.equal((await call(`${core}/namespaces/team-e/${path}`, 'GET', hank)).status, 403, `a hollow rule grants nothing: GET ${path}`);
});
