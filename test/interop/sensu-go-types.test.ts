// The one table of the Sensu Go types (schemas/sensu-go-types.txt) held to the real sensu-backend: for every kind it
// serves, a bare write and one that sets every field are read back from the real backend, and what the table generates
// must decode and serve that answer back byte for byte (every field, its order, null or [] or {}), fill in a bare
// write's zero values as the backend does, and carry the event through the agent door's protobuf plans unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../helpers/wait.js';
import { backendSkipReason, startBackend, BACKEND_ADMIN_PASSWORD } from '../helpers/sensu-backend.js';
import type { Json } from '../../src/json.js';
import { decodeAs, serveAs, shapeEvent, type TypeName } from '../../src/v2/index.js';
import { decodeProtobuf, encodeProtobuf } from '../../src/agentd/proto/codec.js';

const REF = (name: string, type: string) => ({ name, type, api_version: 'core/v2' });
const WHEN = { days: { all: [{ begin: '1:00 AM', end: '2:00 AM' }], monday: [{ begin: '3:00 AM', end: '4:00 AM' }] } };
const SHA = 'a'.repeat(128);
const LABELS = { labels: { team: 'ops' }, annotations: { note: 'n' } };

const CHECK = {
  command: 'true',
  handlers: ['h'],
  high_flap_threshold: 60,
  interval: 10,
  low_flap_threshold: 20,
  publish: true,
  runtime_assets: ['a'],
  subscriptions: ['s'],
  proxy_entity_name: 'px',
  check_hooks: [{ critical: ['hk'] }],
  stdin: true,
  subdue: WHEN,
  ttl: 30,
  timeout: 5,
  proxy_requests: { entity_attributes: ["entity.entity_class == 'proxy'"], splay: true, splay_coverage: 90 },
  round_robin: true,
  output_metric_format: 'nagios_perfdata',
  output_metric_handlers: ['mh'],
  env_vars: ['A=1'],
  max_output_size: 1024,
  discard_output: true,
  secrets: [{ name: 'S', secret: 'sec' }],
  output_metric_tags: [{ name: 't', value: 'v' }],
  pipelines: [REF('p', 'Pipeline')],
  output_metric_thresholds: [{ name: 'm', tags: [{ name: 't', value: 'v' }], thresholds: [{ min: '1', max: '2', status: 1 }], null_status: 2 }],
  subdues: [{ begin: '2030-01-01T00:00:00Z', end: '2030-01-01T01:00:00Z', repeat: ['daily'] }],
};
const SYSTEM = {
  hostname: 'h',
  os: 'linux',
  platform: 'p',
  platform_family: 'pf',
  platform_version: '1',
  network: { interfaces: [{ name: 'eth0', mac: '00:00:00:00:00:01', addresses: ['10.0.0.1/8'] }] },
  arch: 'amd64',
  arm_version: 7,
  libc_type: 'glibc',
  vm_system: 'kvm',
  vm_role: 'guest',
  cloud_provider: 'none',
  float_type: 'hard',
  processes: [{ name: 'init' }],
};
const ENTITY = {
  entity_class: 'proxy',
  system: SYSTEM,
  subscriptions: ['s'],
  last_seen: 0,
  deregister: true,
  deregistration: { handler: 'dh' },
  user: 'agent',
  redact: ['secretlabel'],
  sensu_agent_version: '6.12.0',
  keepalive_handlers: ['kh'],
};

// [kind, the path under the namespace, a bare body, a body setting every field]
const SAMPLES: [TypeName, string, Json, Json][] = [
  ['CheckConfig', 'checks/c', { command: 'true', interval: 10 }, CHECK],
  ['HookConfig', 'hooks/k', { command: 'x', timeout: 1 }, { command: 'x', timeout: 5, stdin: true, runtime_assets: ['a'] }],
  [
    'Handler',
    'handlers/h',
    { type: 'pipe', command: 'x' },
    {
      type: 'pipe',
      mutator: 'm',
      command: 'x',
      timeout: 3,
      handlers: ['o'],
      filters: ['f'],
      env_vars: ['A=1'],
      runtime_assets: ['a'],
      secrets: [{ name: 'S', secret: 's' }],
    },
  ],
  ['Handler', 'handlers/tcp', { type: 'udp', socket: { host: 'localhost', port: 1 } }, { type: 'tcp', socket: { host: 'localhost', port: 4000 }, timeout: 1 }],
  ['Mutator', 'mutators/m', { command: 'x' }, { command: 'x', timeout: 2, env_vars: ['A=1'], runtime_assets: ['a'], secrets: [{ name: 'S', secret: 's' }] }],
  ['Mutator', 'mutators/js', { type: 'javascript', eval: 'data' }, { type: 'javascript', eval: 'data', timeout: 2 }],
  ['EventFilter', 'filters/f', { action: 'allow', expressions: ['true'] }, { action: 'deny', expressions: ['true'], when: WHEN, runtime_assets: ['a'] }],
  [
    'Pipeline',
    'pipelines/p',
    {},
    { workflows: [{ name: 'w', filters: [REF('f', 'EventFilter')], mutator: REF('m', 'Mutator'), handler: REF('h', 'Handler') }] },
  ],
  [
    'Silenced',
    'silenced/s:*',
    { subscription: 's' },
    { subscription: 's', expire: 600, expire_on_resolve: true, reason: 'r', begin: Math.floor(Date.now() / 1000) + 60 },
  ],
  ['Silenced', 'silenced/s:c', { subscription: 's', check: 'c' }, { subscription: 's', check: 'c' }],
  [
    'Asset',
    'assets/a',
    { url: 'http://127.0.0.1:1/y.tgz', sha512: SHA },
    {
      url: 'http://127.0.0.1:1/y.tgz',
      sha512: SHA,
      filters: ["entity.system.os == 'linux'"],
      headers: { A: 'b' },
    },
  ],
  [
    'Asset',
    'assets/b',
    { builds: [{ url: 'http://127.0.0.1:1/y.tgz', sha512: SHA }] },
    { builds: [{ url: 'http://127.0.0.1:1/y.tgz', sha512: SHA, filters: ['true'], headers: { A: 'b' } }] },
  ],
  ['Entity', 'entities/e', { entity_class: 'proxy' }, ENTITY],
  ['Role', 'roles/r', { rules: [{ verbs: ['get'], resources: ['checks'] }] }, { rules: [{ verbs: ['get'], resources: ['checks'], resource_names: ['c'] }] }],
  [
    'RoleBinding',
    'rolebindings/b',
    { role_ref: { type: 'Role', name: 'r' }, subjects: [{ type: 'User', name: 'u' }] },
    {
      role_ref: { type: 'Role', name: 'r' },
      subjects: [{ type: 'User', name: 'u' }],
    },
  ],
];
const CLUSTER_SAMPLES: [TypeName, string, Json, Json][] = [
  [
    'ClusterRole',
    'clusterroles/cr',
    { rules: [{ verbs: ['get'], resources: ['checks'] }] },
    { rules: [{ verbs: ['get'], resources: ['checks'], resource_names: null }] },
  ],
  [
    'ClusterRoleBinding',
    'clusterrolebindings/cb',
    { role_ref: { type: 'ClusterRole', name: 'cr' }, subjects: [{ type: 'Group', name: 'g' }] },
    {
      role_ref: { type: 'ClusterRole', name: 'cr' },
      subjects: [{ type: 'Group', name: 'g' }],
    },
  ],
];

// The fields the backend fills in itself on a write.
const FILLED: Readonly<Record<string, readonly string[]>> = { Silenced: ['creator', 'begin', 'expire_at'] };

// [kind, the path under the namespace, a body Go's decoder refuses]
const REFUSED: [TypeName, string, Json][] = [
  ['CheckConfig', 'checks/bad', { command: 'true', interval: 10, publish: 'yes' }],
  ['CheckConfig', 'checks/bad', { command: 'true', interval: 10, secrets: [{ name: 5 }] }],
  ['CheckConfig', 'checks/bad', { command: 'true', interval: 10, output_metric_tags: {} }],
  ['CheckConfig', 'checks/bad', { command: 'true', interval: 10, subdue: { days: { all: 'x' } } }],
  ['CheckConfig', 'checks/bad', { command: 'true', interval: 10, check_hooks: [{ critical: 'h' }] }],
  ['CheckConfig', 'checks/bad', { command: 'true', interval: 10, check_hooks: 'x' }],
  ['Pipeline', 'pipelines/bad', { workflows: 'x' }],
  ['Pipeline', 'pipelines/bad', { workflows: [{ name: 'w', filters: {} }] }],
  ['Asset', 'assets/bad', { builds: {} }],
  ['Handler', 'handlers/bad', { type: 'pipe', command: 'x', timeout: -1 }],
  ['Silenced', 'silenced/bad', { subscription: 's', expire: 'x' }],
  ['Role', 'roles/bad', { rules: [{ verbs: 'get' }] }],
  ['Entity', 'entities/bad', { entity_class: 'proxy', system: { processes: {} } }],
];

async function login(base: string): Promise<string> {
  const reply = await fetch(`${base}/auth`, { headers: { authorization: `Basic ${Buffer.from(`admin:${BACKEND_ADMIN_PASSWORD}`).toString('base64')}` } });
  assert.equal(reply.status, 200, 'log in to sensu-backend');
  return `Bearer ${((await reply.json()) as { access_token: string }).access_token}`;
}

/** Writes `body` as `name` at `path` and answers what the real backend serves back. */
async function roundTrip(base: string, auth: string, path: string, body: Json): Promise<Json> {
  const name = decodeURIComponent(path.split('/').at(-1)!);
  const metadata = path.startsWith('events/') ? {} : path.startsWith('cluster') ? { name } : { name, namespace: 'default', ...LABELS };
  const headers = { authorization: auth, 'content-type': 'application/json' };
  const put = await fetch(`${base}/${path}`, { method: 'PUT', headers, body: JSON.stringify({ ...body, metadata }) });
  assert.ok(put.status < 300, `PUT ${path}: ${put.status} ${await put.text()}`);
  // The backend stores an event as it processes it, a moment after the write.
  const got = await eventually(
    () => fetch(`${base}/${path}`, { headers }),
    (reply) => reply.status !== 404,
    30_000,
  );
  assert.equal(got.status, 200, `GET ${path}`);
  return (await got.json()) as Json;
}

// Key order matters (templates and dictionary clients read it), so answers are compared as the text they are sent as.
const same = (ours: unknown, theirs: unknown, what: string) => assert.equal(JSON.stringify(ours), JSON.stringify(theirs), what);
const decoded = (kind: TypeName, body: unknown): Json => {
  const { value, problem } = decodeAs(kind, body);
  assert.equal(problem, null, `${kind} decodes`);
  return value!;
};

test('the generated types decode and serve every kind exactly as the real sensu-backend serves it', { skip: backendSkipReason() }, async (t) => {
  const backend = await startBackend(t);
  const auth = await login(backend.api);
  const ns = `${backend.api}/api/core/v2/namespaces/default`;
  const cluster = `${backend.api}/api/core/v2`;
  const rows = [...SAMPLES.map((row) => [...row, ns] as const), ...CLUSTER_SAMPLES.map((row) => [...row, cluster] as const)];
  for (const [kind, path, bare, full, root] of rows) {
    for (const [which, body] of [
      ['bare', bare],
      ['full', full],
    ] as const) {
      const theirs = await roundTrip(root, auth, path, body);
      same(serveAs(kind, decoded(kind, theirs)), theirs, `${kind} ${which}: the backend's answer decoded and served again`);
      const filled = Object.fromEntries((FILLED[kind] ?? []).map((key) => [key, theirs[key]]));
      same(serveAs(kind, decoded(kind, { ...body, metadata: theirs.metadata, ...filled })), theirs, `${kind} ${which}: the body written, served`);
    }
  }
  for (const [kind, path, body] of REFUSED) {
    const reply = await fetch(`${ns}/${path}`, {
      method: 'PUT',
      headers: { authorization: auth },
      body: JSON.stringify({ ...body, metadata: { name: 'bad' } }),
    });
    const { message } = (await reply.json()) as { message: string };
    // The backend answers an entity's 500, the other kinds' 400: the status is the routes' business, the message the table's.
    assert.ok(reply.status === 400 || reply.status === 500, `${kind} ${JSON.stringify(body)}: ${reply.status} ${message}`);
    assert.equal(decodeAs(kind, body).problem, message, `${kind} ${JSON.stringify(body)}: the same refusal`);
  }
  const event = {
    timestamp: 1700000000,
    entity: { ...ENTITY, metadata: { name: 'e9', namespace: 'default', ...LABELS } },
    check: {
      ...CHECK,
      proxy_entity_name: '',
      metadata: { name: 'k9', namespace: 'default' },
      status: 2,
      output: 'out',
      duration: 0.5,
      executed: 1700000000,
      issued: 1700000000,
    },
    metrics: { handlers: ['mh'], points: [{ name: 'p', value: 1.5, timestamp: 1700000000, tags: [{ name: 't', value: 'v' }] }] },
    pipelines: [REF('p', 'Pipeline')],
  };
  const theirs = await roundTrip(ns, auth, 'events/e9/k9', event);
  same(shapeEvent(decoded('Event', theirs)), theirs, "an event: the backend's answer decoded and served again");
  const door = decodeProtobuf('Event', encodeProtobuf('Event', theirs), { maxDepth: 64 });
  same(sortedTop(door as Json), theirs, "an event: the backend's answer through the agent door's protobuf plans");
});

// With an id, Go writes an event's top-level keys sorted (its MarshalJSON goes through a map).
const sortedTop = (value: Json): Json => Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));
