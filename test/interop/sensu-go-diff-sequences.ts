// The request sequences sent to both the real Sensu Go backend and checkbridge: a table, so that another is one line.
// `{ns}` in a path or body is the sequence's own namespace (created on both before its steps); `{continue}` is the
// Sensu-Continue header of the step before, as each server gave it.

export interface Step {
  readonly method: string;
  readonly path: string;
  /** A JSON value, or a string sent as it is (broken bodies). */
  readonly body?: unknown;
  /** Whose token: `admin` (the default), `none`, `session` (the sequence's last login), or `USER:PASSWORD` (logged in through /auth on each server). */
  readonly as?: string;
  readonly headers?: Record<string, string>;
  /** Compare the Content-Type's media type too. */
  readonly type?: boolean;
  /** The list's order matters (paging): compare it as served. */
  readonly ordered?: boolean;
  /** Compare the status only (a body that names server-specific things). */
  readonly statusOnly?: boolean;
  /** An event write: wait until GET of this path serves the event's output (Sensu Go stores events after answering). */
  readonly settle?: { readonly path: string; readonly output: string };
}

export interface Sequence {
  readonly id: string;
  readonly steps: readonly Step[];
}

const NS = '/api/core/v2/namespaces/{ns}';
const SHA = 'a'.repeat(128);
const PASSWORD = 'Passw0rd!limited';

/** A valid body of each namespaced kind, with a `team` label. */
const VALID_BODY: Record<string, (name: string, team: string) => Record<string, unknown>> = {
  assets: (name, team) => ({ metadata: meta(name, team), url: 'http://127.0.0.1/asset.tar.gz', sha512: SHA }),
  checks: (name, team) => ({ metadata: meta(name, team), command: 'true', interval: 60, subscriptions: ['linux'], publish: false }),
  entities: (name, team) => ({ metadata: meta(name, team), entity_class: 'proxy', subscriptions: ['linux'] }),
  handlers: (name, team) => ({ metadata: meta(name, team), type: 'pipe', command: 'cat' }),
  hooks: (name, team) => ({ metadata: meta(name, team), command: 'true', timeout: 10 }),
  filters: (name, team) => ({ metadata: meta(name, team), action: 'allow', expressions: ['event.check.status == 0'] }),
  mutators: (name, team) => ({ metadata: meta(name, team), command: 'cat' }),
  silenced: (name, team) => ({ metadata: meta(name, team), subscription: name.split(':')[0], check: name.split(':')[1] }),
  pipelines: (name, team) => ({
    metadata: meta(name, team),
    workflows: [{ name: 'w', handler: { name: 'h', type: 'Handler', api_version: 'core/v2' } }],
  }),
  roles: (name, team) => ({ metadata: meta(name, team), rules: [{ verbs: ['get', 'list'], resources: ['checks'], resource_names: [] }] }),
  rolebindings: (name, team) => ({ metadata: meta(name, team), role_ref: { type: 'Role', name: 'r' }, subjects: [{ type: 'User', name: 'u' }] }),
};

function meta(name: string, team: string) {
  return { name, namespace: '{ns}', labels: { team } };
}

/** Silences are named `subscription:check`; the others take the name as given. */
const named = (kind: string, base: string) => (kind === 'silenced' ? `${base}:chk` : base);

/** The same operations on every namespaced kind. */
function kindSequences(kind: string): Sequence[] {
  const body = VALID_BODY[kind]!;
  const [a, b, c] = ['a', 'b', 'c'].map((n) => named(kind, n)) as [string, string, string];
  const url = (name: string) => `${NS}/${kind}/${encodeURIComponent(name)}`;
  const put = (name: string, team = 'red') => ({ method: 'PUT', path: url(name), body: body(name, team) });
  const three = [put(a, 'red'), put(b, 'blue'), put(c, 'blue')];
  const seqs: [string, Step[]][] = [
    ['put-create', [put(a), { method: 'GET', path: url(a) }]],
    [
      'post-create',
      [
        { method: 'POST', path: `${NS}/${kind}`, body: body(a, 'red') },
        { method: 'GET', path: url(a) },
      ],
    ],
    ['put-update', [put(a), put(a, 'blue'), { method: 'GET', path: url(a) }]],
    ['post-existing', [put(a), { method: 'POST', path: `${NS}/${kind}`, body: body(a, 'red') }]],
    ['get-missing', [{ method: 'GET', path: url(a) }]],
    ['list', [...three, { method: 'GET', path: `${NS}/${kind}` }]],
    [
      'list-paged',
      [
        ...three,
        { method: 'GET', path: `${NS}/${kind}?limit=2`, ordered: true },
        { method: 'GET', path: `${NS}/${kind}?limit=2&continue={continue}`, ordered: true },
      ],
    ],
    ['list-bad-continue', [...three, { method: 'GET', path: `${NS}/${kind}?limit=2&continue=garbage`, ordered: true }]],
    ['list-label-selector', [...three, { method: 'GET', path: `${NS}/${kind}?labelSelector=team%20%3D%3D%20red` }]],
    [
      'patch',
      [
        put(a),
        { method: 'PATCH', path: url(a), body: { metadata: { labels: { team: 'green' } } }, headers: { 'content-type': 'application/merge-patch+json' } },
        { method: 'GET', path: url(a) },
      ],
    ],
    ['delete', [put(a), { method: 'DELETE', path: url(a) }, { method: 'GET', path: url(a) }]],
    ['delete-missing', [{ method: 'DELETE', path: url(a) }]],
    ['invalid-json', [{ method: 'PUT', path: url(a), body: '{"metadata": {' }]],
    ['invalid-name', [{ method: 'PUT', path: url('bad name!'), body: body('bad name!', 'red') }]],
    ['name-mismatch', [{ method: 'PUT', path: url(a), body: body(b, 'red') }]],
    ['labels-not-object', [{ method: 'PUT', path: url(a), body: { ...body(a, 'red'), metadata: { name: a, namespace: '{ns}', labels: 'x' } } }]],
    [
      'missing-namespace',
      [
        { method: 'GET', path: `/api/core/v2/namespaces/nowhere/${kind}` },
        { method: 'PUT', path: `/api/core/v2/namespaces/nowhere/${kind}/${a}`, body: { ...body(a, 'red'), metadata: { name: a, namespace: 'nowhere' } } },
      ],
    ],
  ];
  return seqs.map(([op, steps]) => ({ id: `${kind}.${op}`, steps }));
}

/** Cluster-wide kinds: a smaller set of operations. */
const CLUSTER: Record<string, (name: string) => Record<string, unknown>> = {
  clusterroles: (name) => ({ metadata: { name }, rules: [{ verbs: ['get'], resources: ['namespaces'], resource_names: [] }] }),
  clusterrolebindings: (name) => ({ metadata: { name }, role_ref: { type: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ type: 'User', name: 'u' }] }),
  namespaces: (name) => ({ name }),
};

function clusterSequences(kind: string): Sequence[] {
  const body = CLUSTER[kind]!;
  const url = (name: string) => `/api/core/v2/${kind}/${name}`;
  const seqs: [string, Step[]][] = [
    [
      'put-create',
      [
        { method: 'PUT', path: url(`x-${kind}`), body: body(`x-${kind}`) },
        { method: 'GET', path: url(`x-${kind}`) },
      ],
    ],
    [
      'post-create',
      [
        { method: 'POST', path: `/api/core/v2/${kind}`, body: body(`y-${kind}`) },
        { method: 'GET', path: url(`y-${kind}`) },
      ],
    ],
    ['get-missing', [{ method: 'GET', path: url('missing') }]],
    [
      'delete',
      [
        { method: 'PUT', path: url(`z-${kind}`), body: body(`z-${kind}`) },
        { method: 'DELETE', path: url(`z-${kind}`) },
        { method: 'GET', path: url(`z-${kind}`) },
      ],
    ],
    ['delete-missing', [{ method: 'DELETE', path: url('missing') }]],
    ['invalid-json', [{ method: 'PUT', path: url(`w-${kind}`), body: '{"metadata": {' }]],
    ['invalid-name', [{ method: 'PUT', path: url('bad%20name!'), body: body('bad name!') }]],
  ];
  return seqs.map(([op, steps]) => ({ id: `${kind}.${op}`, steps }));
}

let written = 0;
const event = (entity: string, check: string, status: number, extra: Record<string, unknown> = {}) => ({
  entity: { metadata: { name: entity, namespace: '{ns}' }, entity_class: 'proxy' },
  check: { metadata: { name: check, namespace: '{ns}' }, status, interval: 60, output: `status ${status} #${++written}`, ...extra },
});
/** An event write that the next step sees stored. */
const writeEvent = (method: string, path: string, body: ReturnType<typeof event>): Step => ({
  method,
  path,
  body,
  settle: { path: `${NS}/events/${body.entity.metadata.name}/${body.check.metadata.name}`, output: body.check.output },
});
const putEvent = (entity: string, check: string, status: number, extra: Record<string, unknown> = {}): Step =>
  writeEvent('PUT', `${NS}/events/${entity}/${check}`, event(entity, check, status, extra));
const getEvent = (entity: string, check: string): Step => ({ method: 'GET', path: `${NS}/events/${entity}/${check}` });

const EVENTS: Sequence[] = [
  { id: 'events.put-create', steps: [putEvent('e1', 'k1', 0), getEvent('e1', 'k1')] },
  { id: 'events.post-create', steps: [writeEvent('POST', `${NS}/events`, event('e1', 'k1', 1)), getEvent('e1', 'k1')] },
  { id: 'events.occurrences', steps: [putEvent('e1', 'k1', 1), putEvent('e1', 'k1', 1), putEvent('e1', 'k1', 1), getEvent('e1', 'k1')] },
  { id: 'events.recovery', steps: [putEvent('e1', 'k1', 2), putEvent('e1', 'k1', 2), putEvent('e1', 'k1', 0), getEvent('e1', 'k1')] },
  {
    id: 'events.history-and-last-ok',
    steps: [putEvent('e1', 'k1', 0), putEvent('e1', 'k1', 1), putEvent('e1', 'k1', 0), putEvent('e1', 'k1', 2), getEvent('e1', 'k1')],
  },
  { id: 'events.entity-created', steps: [putEvent('e1', 'k1', 0), { method: 'GET', path: `${NS}/entities/e1` }] },
  { id: 'events.list', steps: [putEvent('e1', 'k1', 0), putEvent('e2', 'k1', 1), putEvent('e1', 'k2', 2), { method: 'GET', path: `${NS}/events` }] },
  { id: 'events.list-entity', steps: [putEvent('e1', 'k1', 0), putEvent('e2', 'k1', 1), { method: 'GET', path: `${NS}/events/e1` }] },
  {
    id: 'events.list-paged',
    steps: [
      putEvent('e1', 'k1', 0),
      putEvent('e2', 'k1', 1),
      putEvent('e3', 'k1', 2),
      { method: 'GET', path: `${NS}/events?limit=2`, ordered: true },
      { method: 'GET', path: `${NS}/events?limit=2&continue={continue}`, ordered: true },
    ],
  },
  { id: 'events.delete', steps: [putEvent('e1', 'k1', 0), { method: 'DELETE', path: `${NS}/events/e1/k1` }, getEvent('e1', 'k1')] },
  { id: 'events.delete-missing', steps: [{ method: 'DELETE', path: `${NS}/events/e1/k1` }] },
  { id: 'events.get-missing', steps: [getEvent('e1', 'k1')] },
  { id: 'events.entity-delete-removes', steps: [putEvent('e1', 'k1', 1), { method: 'DELETE', path: `${NS}/entities/e1` }, getEvent('e1', 'k1')] },
  {
    id: 'events.no-interval',
    steps: [
      {
        method: 'PUT',
        path: `${NS}/events/e1/k1`,
        body: {
          entity: { metadata: { name: 'e1', namespace: '{ns}' }, entity_class: 'proxy' },
          check: { metadata: { name: 'k1', namespace: '{ns}' }, status: 0 },
        },
      },
    ],
  },
  { id: 'events.no-entity', steps: [{ method: 'POST', path: `${NS}/events`, body: { check: { metadata: { name: 'k1' }, status: 0, interval: 60 } } }] },
  { id: 'events.no-check', steps: [{ method: 'POST', path: `${NS}/events`, body: { entity: { metadata: { name: 'e1' }, entity_class: 'proxy' } } }] },
  { id: 'events.invalid-json', steps: [{ method: 'POST', path: `${NS}/events`, body: '{"entity": ' }] },
  { id: 'events.status-string', steps: [putEvent('e1', 'k1', 0, { status: 'bad' })] },
  { id: 'events.name-mismatch', steps: [{ method: 'PUT', path: `${NS}/events/e1/k1`, body: event('e2', 'k1', 0) }] },
  {
    id: 'events.missing-namespace',
    steps: [
      { method: 'GET', path: '/api/core/v2/namespaces/nowhere/events' },
      { method: 'PUT', path: '/api/core/v2/namespaces/nowhere/events/e1/k1', body: event('e1', 'k1', 0) },
    ],
  },
  {
    id: 'events.flapping',
    steps: [0, 2, 0, 2, 0, 2, 0, 2].map((s) => putEvent('e1', 'k1', s, { low_flap_threshold: 10, high_flap_threshold: 30 })).concat([getEvent('e1', 'k1')]),
  },
  {
    id: 'events.metrics-event',
    steps: [
      {
        method: 'POST',
        path: `${NS}/events`,
        body: { entity: { metadata: { name: 'e1' }, entity_class: 'proxy' }, metrics: { points: [{ name: 'm', value: 1, timestamp: 1700000000, tags: [] }] } },
      },
    ],
  },
];

const SILENCES: Sequence[] = [
  {
    id: 'silences.no-expiry',
    steps: [
      { method: 'PUT', path: `${NS}/silenced/linux:disk`, body: { metadata: { name: 'linux:disk', namespace: '{ns}' }, subscription: 'linux', check: 'disk' } },
      { method: 'GET', path: `${NS}/silenced/linux:disk` },
    ],
  },
  {
    id: 'silences.expire',
    steps: [
      {
        method: 'PUT',
        path: `${NS}/silenced/linux:disk`,
        body: { metadata: { name: 'linux:disk', namespace: '{ns}' }, subscription: 'linux', check: 'disk', expire: 600 },
      },
      { method: 'GET', path: `${NS}/silenced/linux:disk` },
    ],
  },
  {
    id: 'silences.over-a-day',
    steps: [
      {
        method: 'PUT',
        path: `${NS}/silenced/linux:disk`,
        body: { metadata: { name: 'linux:disk', namespace: '{ns}' }, subscription: 'linux', check: 'disk', expire: 200000 },
      },
    ],
  },
  {
    id: 'silences.renamed',
    steps: [
      { method: 'POST', path: `${NS}/silenced`, body: { metadata: { name: 'whatever', namespace: '{ns}' }, subscription: 'linux', check: 'disk' } },
      { method: 'GET', path: `${NS}/silenced` },
    ],
  },
  {
    id: 'silences.subscription-only',
    steps: [
      { method: 'POST', path: `${NS}/silenced`, body: { metadata: { namespace: '{ns}' }, subscription: 'linux' } },
      { method: 'GET', path: `${NS}/silenced/linux:*` },
    ],
  },
  {
    id: 'silences.check-only',
    steps: [
      { method: 'POST', path: `${NS}/silenced`, body: { metadata: { namespace: '{ns}' }, check: 'disk' } },
      { method: 'GET', path: `${NS}/silenced/*:disk` },
    ],
  },
  { id: 'silences.neither', steps: [{ method: 'POST', path: `${NS}/silenced`, body: { metadata: { namespace: '{ns}' } } }] },
  // The lookups are given an expiry: what they compare is the lookup, not the expiry policy (silences.no-expiry).
  {
    id: 'silences.by-subscription',
    steps: [
      { method: 'POST', path: `${NS}/silenced`, body: { metadata: { namespace: '{ns}' }, subscription: 'linux', check: 'disk', expire: 3600 } },
      { method: 'GET', path: `${NS}/silenced/subscriptions/linux` },
    ],
  },
  {
    id: 'silences.by-check',
    steps: [
      { method: 'POST', path: `${NS}/silenced`, body: { metadata: { namespace: '{ns}' }, subscription: 'linux', check: 'disk', expire: 3600 } },
      { method: 'GET', path: `${NS}/silenced/checks/disk` },
    ],
  },
  {
    id: 'silences.all-namespaces-by-check',
    steps: [
      { method: 'POST', path: `${NS}/silenced`, body: { metadata: { namespace: '{ns}' }, subscription: 'zz9', check: 'plural', expire: 3600 } },
      { method: 'GET', path: '/api/core/v2/silenced/checks/plural' },
    ],
  },
  {
    id: 'silences.already-expired',
    steps: [
      { method: 'POST', path: `${NS}/silenced`, body: { metadata: { namespace: '{ns}' }, subscription: 'linux', check: 'old', begin: 1000000000, expire: 60 } },
      { method: 'GET', path: `${NS}/silenced` },
    ],
  },
];

const USERS: Sequence[] = [
  {
    id: 'users.create',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-create', password: PASSWORD, groups: ['g'] } },
      { method: 'GET', path: '/api/core/v2/users/u-create' },
    ],
  },
  {
    id: 'users.put-create',
    steps: [
      { method: 'PUT', path: '/api/core/v2/users/u-put', body: { username: 'u-put', password: PASSWORD } },
      { method: 'GET', path: '/api/core/v2/users/u-put' },
    ],
  },
  { id: 'users.short-password', steps: [{ method: 'POST', path: '/api/core/v2/users', body: { username: 'u-short', password: 'abc' } }] },
  { id: 'users.no-password', steps: [{ method: 'POST', path: '/api/core/v2/users', body: { username: 'u-nopw' } }] },
  { id: 'users.get-missing', steps: [{ method: 'GET', path: '/api/core/v2/users/nobody' }] },
  { id: 'users.existing', steps: [{ method: 'POST', path: '/api/core/v2/users', body: { username: 'admin', password: PASSWORD } }] },
  // disabled is a boolean: a string, even "false", is refused (it is not read as true).
  {
    id: 'users.disabled-not-boolean',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-dstr', password: PASSWORD, disabled: 'false' } },
      { method: 'GET', path: '/api/core/v2/users/u-dstr' },
    ],
  },
  {
    id: 'users.disable',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-dis', password: PASSWORD } },
      { method: 'DELETE', path: '/api/core/v2/users/u-dis' },
      { method: 'GET', path: '/api/core/v2/users/u-dis' },
      { method: 'GET', path: '/auth', as: `u-dis:${PASSWORD}` },
    ],
  },
  {
    id: 'users.reinstate',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-rei', password: PASSWORD } },
      { method: 'DELETE', path: '/api/core/v2/users/u-rei' },
      { method: 'PUT', path: '/api/core/v2/users/u-rei/reinstate' },
      { method: 'GET', path: '/api/core/v2/users/u-rei' },
    ],
  },
  {
    id: 'users.reset-password',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-pw', password: PASSWORD } },
      { method: 'PUT', path: '/api/core/v2/users/u-pw/reset_password', body: { username: 'u-pw', password_hash: '', password: 'Another!pass1' } },
      { method: 'GET', path: '/auth', as: 'u-pw:Another!pass1', statusOnly: true },
    ],
  },
  {
    id: 'users.change-password',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-cp', password: PASSWORD } },
      { method: 'PUT', path: '/api/core/v2/users/u-cp/change_password', body: { username: 'u-cp', password: PASSWORD, password_new: 'Another!pass1' } },
      // Logged in with the new password (as: logs in through /auth on each server), the user reads itself.
      { method: 'GET', path: '/api/core/v2/users/u-cp', as: 'u-cp:Another!pass1' },
    ],
  },
  {
    id: 'users.add-group',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-grp', password: PASSWORD } },
      { method: 'PUT', path: '/api/core/v2/users/u-grp/groups/ops' },
      { method: 'GET', path: '/api/core/v2/users/u-grp' },
    ],
  },
  {
    id: 'users.remove-groups',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-rg', password: PASSWORD, groups: ['a', 'b'] } },
      { method: 'DELETE', path: '/api/core/v2/users/u-rg/groups' },
      { method: 'GET', path: '/api/core/v2/users/u-rg' },
    ],
  },
  {
    id: 'users.remove-group',
    steps: [
      { method: 'POST', path: '/api/core/v2/users', body: { username: 'u-rg1', password: PASSWORD, groups: ['a', 'b'] } },
      { method: 'DELETE', path: '/api/core/v2/users/u-rg1/groups/a' },
      { method: 'GET', path: '/api/core/v2/users/u-rg1' },
    ],
  },
  {
    id: 'users.put-update',
    steps: [
      { method: 'PUT', path: '/api/core/v2/users/u-pu', body: { username: 'u-pu', password: PASSWORD } },
      { method: 'PUT', path: '/api/core/v2/users/u-pu', body: { username: 'u-pu', password: PASSWORD, groups: ['x'] } },
      { method: 'GET', path: '/api/core/v2/users/u-pu' },
    ],
  },
  { id: 'users.invalid-json', steps: [{ method: 'POST', path: '/api/core/v2/users', body: '{"username":' }] },
];

const limitedUser = (name: string): Step[] => [
  { method: 'POST', path: '/api/core/v2/users', body: { username: name, password: PASSWORD } },
  {
    method: 'PUT',
    path: `${NS}/roles/viewer`,
    body: { metadata: { name: 'viewer', namespace: '{ns}' }, rules: [{ verbs: ['get', 'list'], resources: ['checks', 'events'], resource_names: [] }] },
  },
  {
    method: 'PUT',
    path: `${NS}/rolebindings/viewer`,
    body: { metadata: { name: 'viewer', namespace: '{ns}' }, role_ref: { type: 'Role', name: 'viewer' }, subjects: [{ type: 'User', name }] },
  },
  { method: 'PUT', path: `${NS}/checks/c1`, body: VALID_BODY.checks!('c1', 'red') },
];
const asUser = (name: string, method: string, path: string, body?: unknown): Step => ({
  method,
  path,
  as: `${name}:${PASSWORD}`,
  ...(body !== undefined ? { body } : {}),
});

const RBAC: Sequence[] = [
  { id: 'rbac.limited-get', steps: [...limitedUser('l-get'), asUser('l-get', 'GET', `${NS}/checks/c1`)] },
  { id: 'rbac.limited-list', steps: [...limitedUser('l-list'), asUser('l-list', 'GET', `${NS}/checks`)] },
  { id: 'rbac.limited-write', steps: [...limitedUser('l-write'), asUser('l-write', 'PUT', `${NS}/checks/c2`, VALID_BODY.checks!('c2', 'red'))] },
  { id: 'rbac.limited-other-kind', steps: [...limitedUser('l-kind'), asUser('l-kind', 'GET', `${NS}/handlers`)] },
  { id: 'rbac.limited-other-namespace', steps: [...limitedUser('l-ns'), asUser('l-ns', 'GET', '/api/core/v2/namespaces/default/checks')] },
  { id: 'rbac.limited-namespaces', steps: [...limitedUser('l-nslist'), asUser('l-nslist', 'GET', '/api/core/v2/namespaces')] },
  { id: 'rbac.limited-users', steps: [...limitedUser('l-users'), asUser('l-users', 'GET', '/api/core/v2/users')] },
  { id: 'rbac.limited-self', steps: [...limitedUser('l-self'), asUser('l-self', 'GET', '/api/core/v2/users/l-self')] },
  { id: 'rbac.limited-delete', steps: [...limitedUser('l-del'), asUser('l-del', 'DELETE', `${NS}/checks/c1`)] },
  { id: 'rbac.no-token', steps: [{ method: 'GET', path: `${NS}/checks`, as: 'none' }] },
  { id: 'rbac.bad-token', steps: [{ method: 'GET', path: `${NS}/checks`, as: 'none', headers: { authorization: 'Bearer nonsense' } }] },
  {
    id: 'rbac.role-and-binding-delete',
    steps: [...limitedUser('l-rb'), { method: 'DELETE', path: `${NS}/roles/viewer` }, { method: 'DELETE', path: `${NS}/rolebindings/viewer` }],
  },
  {
    id: 'rbac.recreated-role',
    steps: [
      ...limitedUser('l-rr'),
      { method: 'DELETE', path: `${NS}/roles/viewer` },
      {
        method: 'PUT',
        path: `${NS}/roles/viewer`,
        body: { metadata: { name: 'viewer', namespace: '{ns}' }, rules: [{ verbs: ['get'], resources: ['checks'], resource_names: [] }] },
      },
      asUser('l-rr', 'GET', `${NS}/checks/c1`),
    ],
  },
  {
    id: 'rbac.role-bad-verb',
    steps: [
      {
        method: 'PUT',
        path: `${NS}/roles/r`,
        body: { metadata: { name: 'r', namespace: '{ns}' }, rules: [{ verbs: ['frob'], resources: ['checks'], resource_names: [] }] },
      },
    ],
  },
  {
    id: 'rbac.binding-no-subjects',
    steps: [
      {
        method: 'PUT',
        path: `${NS}/rolebindings/b`,
        body: { metadata: { name: 'b', namespace: '{ns}' }, role_ref: { type: 'Role', name: 'r' }, subjects: [] },
      },
    ],
  },
];

const LOGIN: Step = { method: 'GET', path: '/auth', as: 'none', headers: { authorization: `Basic ${Buffer.from(`l-auth:${PASSWORD}`).toString('base64')}` } };
const AUTH_USER: Step = { method: 'POST', path: '/api/core/v2/users', body: { username: 'l-auth', password: PASSWORD, groups: ['g'] } };
const AUTH: Sequence[] = [
  { id: 'auth.login', steps: [AUTH_USER, LOGIN, { method: 'GET', path: '/api/core/v2/users/l-auth', as: 'session' }] },
  { id: 'auth.refresh', steps: [LOGIN, { method: 'POST', path: '/auth/token', as: 'session', body: { refresh_token: '{refresh}' } }] },
  {
    id: 'auth.logout-revokes',
    steps: [
      LOGIN,
      { method: 'POST', path: '/auth/logout', as: 'session', body: { refresh_token: '{refresh}' } },
      { method: 'GET', path: '/api/core/v2/users/l-auth', as: 'session' },
    ],
  },
  {
    id: 'auth.refresh-after-logout',
    steps: [
      LOGIN,
      { method: 'POST', path: '/auth/logout', as: 'session', body: { refresh_token: '{refresh}' } },
      { method: 'POST', path: '/auth/token', as: 'session', body: { refresh_token: '{refresh}' } },
    ],
  },
  {
    id: 'auth.bad-password',
    steps: [{ method: 'GET', path: '/auth', as: 'none', headers: { authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` } }],
  },
  {
    id: 'auth.unknown-user',
    steps: [{ method: 'GET', path: '/auth', as: 'none', headers: { authorization: `Basic ${Buffer.from('ghost:wrong').toString('base64')}` } }],
  },
  { id: 'auth.no-credentials', steps: [{ method: 'GET', path: '/auth', as: 'none' }] },
  {
    id: 'auth.test',
    steps: [{ method: 'GET', path: '/auth/test', as: 'none', headers: { authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` } }],
  },
  { id: 'auth.token-no-refresh', steps: [{ method: 'POST', path: '/auth/token', body: {} }] },
  { id: 'auth.logout-no-refresh', steps: [{ method: 'POST', path: '/auth/logout', body: {} }] },
];

const MISC: Sequence[] = [
  { id: 'apikeys.create', steps: [{ method: 'POST', path: '/api/core/v2/apikeys', body: { username: 'admin' } }] },
  {
    id: 'apikeys.list',
    steps: [
      { method: 'POST', path: '/api/core/v2/apikeys', body: { username: 'l-auth' } },
      { method: 'GET', path: '/api/core/v2/apikeys' },
    ],
  },
  { id: 'apikeys.unknown-user', steps: [{ method: 'POST', path: '/api/core/v2/apikeys', body: { username: 'ghost' } }] },
  { id: 'apikeys.get-missing', steps: [{ method: 'GET', path: '/api/core/v2/apikeys/00000000-0000-0000-0000-000000000000' }] },
  { id: 'apikeys.delete-missing', steps: [{ method: 'DELETE', path: '/api/core/v2/apikeys/00000000-0000-0000-0000-000000000000' }] },
  { id: 'tessen.get', steps: [{ method: 'GET', path: '/api/core/v2/tessen' }] },
  {
    id: 'tessen.opt-out',
    steps: [
      { method: 'PUT', path: '/api/core/v2/tessen', body: { opt_out: true } },
      { method: 'GET', path: '/api/core/v2/tessen' },
    ],
  },
  { id: 'tessen.opt-in', steps: [{ method: 'PUT', path: '/api/core/v2/tessen', body: { opt_out: false } }] },
  { id: 'version', steps: [{ method: 'GET', path: '/version', as: 'none', type: true }] },
  { id: 'health', steps: [{ method: 'GET', path: '/health', as: 'none', type: true }] },
  { id: 'health.bad-timeout', steps: [{ method: 'GET', path: '/health?timeout=x', as: 'none', type: true }] },
  { id: 'metrics', steps: [{ method: 'GET', path: '/metrics', as: 'none', type: true, statusOnly: true }] },
  { id: 'errors.content-type', steps: [{ method: 'GET', path: `${NS}/checks/missing`, type: true }] },
  {
    id: 'namespaces.delete-non-empty',
    steps: [
      { method: 'PUT', path: `${NS}/checks/c1`, body: VALID_BODY.checks!('c1', 'red') },
      { method: 'DELETE', path: '/api/core/v2/namespaces/{ns}' },
    ],
  },
  { id: 'namespaces.list', steps: [{ method: 'GET', path: '/api/core/v2/namespaces' }] },
  { id: 'routes.wrong-method', steps: [{ method: 'POST', path: `${NS}/checks/c1`, body: VALID_BODY.checks!('c1', 'red') }] },
  { id: 'routes.unknown', steps: [{ method: 'GET', path: `${NS}/frobnicators` }] },
  {
    id: 'checks.unknown-field',
    steps: [
      { method: 'PUT', path: `${NS}/checks/c1`, body: { ...VALID_BODY.checks!('c1', 'red'), frobnicate: 1 } },
      { method: 'GET', path: `${NS}/checks/c1` },
    ],
  },
  { id: 'checks.publish-string', steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: { ...VALID_BODY.checks!('c1', 'red'), publish: 'yes' } }] },
  { id: 'checks.no-interval', steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: { metadata: { name: 'c1', namespace: '{ns}' }, command: 'true' } }] },
  { id: 'checks.cron-and-interval', steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: { ...VALID_BODY.checks!('c1', 'red'), cron: '* * * * *' } }] },
  {
    id: 'checks.bad-cron',
    steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: { metadata: { name: 'c1', namespace: '{ns}' }, command: 'true', cron: 'every day' } }],
  },
  {
    id: 'checks.bad-metric-format',
    steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: { ...VALID_BODY.checks!('c1', 'red'), output_metric_format: 'bogus' } }],
  },
  {
    id: 'checks.flap-thresholds',
    steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: { ...VALID_BODY.checks!('c1', 'red'), low_flap_threshold: 50, high_flap_threshold: 20 } }],
  },
  {
    id: 'checks.set-hooks',
    steps: [
      { method: 'PUT', path: `${NS}/checks/c1`, body: VALID_BODY.checks!('c1', 'red') },
      { method: 'PUT', path: `${NS}/checks/c1/hooks/critical`, body: { critical: ['h1'] } },
      { method: 'GET', path: `${NS}/checks/c1` },
    ],
  },
  {
    id: 'checks.execute',
    steps: [
      { method: 'PUT', path: `${NS}/checks/c1`, body: VALID_BODY.checks!('c1', 'red') },
      { method: 'POST', path: `${NS}/checks/c1/execute`, body: { check: 'c1' } },
    ],
  },
  { id: 'checks.execute-missing', steps: [{ method: 'POST', path: `${NS}/checks/nope/execute`, body: { check: 'nope' } }] },
  {
    id: 'assets.slash-name',
    steps: [{ method: 'PUT', path: `${NS}/assets/sensu%2Fcheck-cpu-usage`, body: VALID_BODY.assets!('sensu/check-cpu-usage', 'red') }],
  },
  { id: 'assets.no-url', steps: [{ method: 'PUT', path: `${NS}/assets/a1`, body: { metadata: { name: 'a1', namespace: '{ns}' }, sha512: SHA } }] },
  {
    id: 'handlers.bad-type',
    steps: [{ method: 'PUT', path: `${NS}/handlers/h1`, body: { metadata: { name: 'h1', namespace: '{ns}' }, type: 'bogus', command: 'cat' } }],
  },
  // The rule book's handler rules, as Sensu Go 6.12 has them: four types, a command that is not blank, a socket with a host and a port.
  ...(
    [
      ['handlers.grpc-type', { type: 'grpc' }],
      ['handlers.blank-command', { type: 'pipe', command: '  ' }],
      ['handlers.port-zero', { type: 'tcp', socket: { host: '127.0.0.1', port: 0 } }],
      ['handlers.no-socket-host', { type: 'udp', socket: { port: 8125 } }],
      ['handlers.no-socket', { type: 'tcp' }],
    ] as const
  ).map(([id, spec]) => ({ id, steps: [{ method: 'PUT', path: `${NS}/handlers/h1`, body: { metadata: { name: 'h1', namespace: '{ns}' }, ...spec } }] })),
  {
    id: 'checks.bad-proxy-entity-name',
    steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: { ...VALID_BODY.checks!('c1', 'red'), proxy_entity_name: 'a b' } }],
  },
  {
    id: 'checks.colon-proxy-entity-name',
    steps: [
      { method: 'PUT', path: `${NS}/checks/c1`, body: { ...VALID_BODY.checks!('c1', 'red'), proxy_entity_name: 'db:primary' } },
      { method: 'GET', path: `${NS}/checks/c1` },
    ],
  },
  {
    id: 'entities.bad-class',
    steps: [{ method: 'PUT', path: `${NS}/entities/e1`, body: { metadata: { name: 'e1', namespace: '{ns}' }, entity_class: 'a b' } }],
  },
  {
    id: 'entities.colon-class',
    steps: [{ method: 'PUT', path: `${NS}/entities/e1`, body: { metadata: { name: 'e1', namespace: '{ns}' }, entity_class: 'foo:bar' }, statusOnly: true }],
  },
  { id: 'hooks.no-timeout', steps: [{ method: 'PUT', path: `${NS}/hooks/h1`, body: { metadata: { name: 'h1', namespace: '{ns}' }, command: 'true' } }] },
  {
    id: 'hooks.timeout-string',
    steps: [{ method: 'PUT', path: `${NS}/hooks/h1`, body: { metadata: { name: 'h1', namespace: '{ns}' }, command: 'true', timeout: '10' } }],
  },
  {
    id: 'filters.no-expressions',
    steps: [{ method: 'PUT', path: `${NS}/filters/f1`, body: { metadata: { name: 'f1', namespace: '{ns}' }, action: 'allow' } }],
  },
  {
    id: 'mutators.bad-type',
    steps: [{ method: 'PUT', path: `${NS}/mutators/m1`, body: { metadata: { name: 'm1', namespace: '{ns}' }, type: 'bogus', command: 'cat' } }],
  },
  {
    id: 'pipelines.bad-handler-type',
    steps: [
      {
        method: 'PUT',
        path: `${NS}/pipelines/p1`,
        body: { metadata: { name: 'p1', namespace: '{ns}' }, workflows: [{ name: 'w', handler: { name: 'h', type: 'Nope', api_version: 'core/v2' } }] },
      },
    ],
  },
  {
    id: 'entities.managed-by-agent',
    steps: [
      {
        method: 'PUT',
        path: `${NS}/entities/e1`,
        body: { metadata: { name: 'e1', namespace: '{ns}', labels: { 'sensu.io/managed_by': 'sensu-agent' } }, entity_class: 'agent' },
      },
    ],
  },
  {
    id: 'names.dot-dot',
    steps: [
      { method: 'PUT', path: `${NS}/checks/..`, body: VALID_BODY.checks!('..', 'red') },
      { method: 'GET', path: `${NS}/checks` },
    ],
  },
];

const checkBody = (name: string, extra: Record<string, unknown>) => ({ metadata: { name, namespace: '{ns}' }, interval: 60, ...extra });
const rule = (extra: Record<string, unknown>) => ({ verbs: ['get'], resources: ['checks'], resource_names: [], ...extra });

/** Where Sensu Go is lenient (a dump taken from it restores here), or where docs/sensu-go-differences.md says why not. */
const LENIENCY: Sequence[] = [
  {
    id: 'checks.no-command',
    steps: [
      { method: 'PUT', path: `${NS}/checks/c1`, body: checkBody('c1', { subscriptions: ['linux'], publish: true }) },
      { method: 'GET', path: `${NS}/checks/c1` },
    ],
  },
  {
    id: 'checks.empty-command',
    steps: [
      { method: 'POST', path: `${NS}/checks`, body: checkBody('c1', { command: '', subscriptions: ['linux'], publish: true }) },
      { method: 'GET', path: `${NS}/checks/c1` },
    ],
  },
  { id: 'checks.ttl-under-5', steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: checkBody('c1', { command: 'true', interval: 1, ttl: 3 }) }] },
  {
    id: 'checks.put-no-body-namespace',
    steps: [{ method: 'PUT', path: `${NS}/checks/c1`, body: { metadata: { name: 'c1' }, command: 'true', interval: 60 } }],
  },
  {
    id: 'checks.post-no-body-namespace',
    steps: [{ method: 'POST', path: `${NS}/checks`, body: { metadata: { name: 'c1' }, command: 'true', interval: 60 } }],
  },
  {
    id: 'checks.list-negative-limit',
    steps: [
      { method: 'PUT', path: `${NS}/checks/c1`, body: VALID_BODY.checks!('c1', 'red') },
      { method: 'PUT', path: `${NS}/checks/c2`, body: VALID_BODY.checks!('c2', 'red') },
      { method: 'GET', path: `${NS}/checks?limit=-1`, ordered: true },
      { method: 'GET', path: `${NS}/checks?limit=1&continue={continue}`, ordered: true },
    ],
  },
  {
    id: 'checks.remove-last-hook',
    steps: [
      { method: 'PUT', path: `${NS}/checks/c1`, body: VALID_BODY.checks!('c1', 'red') },
      { method: 'PUT', path: `${NS}/checks/c1/hooks/critical`, body: { critical: ['h1'] } },
      { method: 'DELETE', path: `${NS}/checks/c1/hooks/critical/hook/h1` },
      { method: 'GET', path: `${NS}/checks/c1` },
    ],
  },
  ...(
    [
      ['empty-verbs', { verbs: [] }],
      ['empty-resources', { resources: [] }],
      ['no-verbs', { verbs: undefined }],
    ] as const
  ).map(([what, extra]) => ({
    id: `roles.${what}`,
    steps: [
      { method: 'PUT', path: `${NS}/roles/r1`, body: { metadata: { name: 'r1', namespace: '{ns}' }, rules: [rule(extra)] } },
      { method: 'GET', path: `${NS}/roles/r1` },
    ],
  })),
  {
    id: 'clusterroles.empty-lists',
    steps: [
      {
        method: 'PUT',
        path: '/api/core/v2/clusterroles/d-empty-lists',
        body: { metadata: { name: 'd-empty-lists' }, rules: [rule({ verbs: [], resources: [] })] },
      },
      { method: 'GET', path: '/api/core/v2/clusterroles/d-empty-lists' },
    ],
  },
  {
    id: 'clusterrolebindings.role-ref-role',
    steps: [
      {
        method: 'PUT',
        path: '/api/core/v2/clusterrolebindings/d-role-ref-role',
        body: { metadata: { name: 'd-role-ref-role' }, role_ref: { type: 'Role', name: 'r1' }, subjects: [{ type: 'User', name: 'u' }] },
      },
    ],
  },
  {
    id: 'assets.url-not-url',
    steps: [
      { method: 'PUT', path: `${NS}/assets/a1`, body: { metadata: { name: 'a1', namespace: '{ns}' }, url: 'not a url', sha512: SHA } },
      { method: 'GET', path: `${NS}/assets/a1` },
    ],
  },
  { id: 'graphql', steps: [{ method: 'POST', path: '/graphql', body: { query: '{ __typename }' }, statusOnly: true }] },
];

export const SEQUENCES: readonly Sequence[] = [
  ...Object.keys(VALID_BODY).flatMap(kindSequences),
  ...Object.keys(CLUSTER).flatMap(clusterSequences),
  ...EVENTS,
  ...SILENCES,
  ...USERS,
  ...RBAC,
  ...AUTH,
  ...MISC,
  ...LENIENCY,
];
