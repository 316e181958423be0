// The playbook the Ansible collection test plays: for each module, create, the same task again, modify, read back
// with its `*_info` module, delete, delete again. Task names are ids: `<resource>: <step>`.

export type Outcome = 'changed' | 'ok' | 'failed';

export interface Task {
  readonly name: string;
  readonly module: string;
  readonly args: Record<string, unknown>;
  /** What a converging backend answers (ok: no change); checked on checkbridge for the tasks Sensu Go cannot play. */
  readonly expect: Outcome;
  /** Enterprise: the community sensu-backend does not serve it, so it is compared against `expect` only. */
  readonly enterprise?: boolean;
  /** Why `expect` is not what an idempotent module would report, when it is not. */
  readonly because?: string;
  /** A difference listed in docs/sensu-go-differences.md: what Sensu Go answers instead. */
  readonly sensuGo?: Outcome;
}

const NS = 'ansible';
const sensu = (module: string) => `sensu.sensu_go.${module}`;

interface Lifecycle {
  readonly id: string;
  readonly module: string;
  /** Arguments naming the resource (its name, its namespace). */
  readonly key: Record<string, unknown>;
  readonly create: Record<string, unknown>;
  /** Arguments that change it; none for a resource with nothing to change. */
  readonly modify?: Record<string, unknown>;
  /** The read-back module and its arguments (the key's by default). */
  readonly info: string;
  readonly infoArgs?: Record<string, unknown>;
  readonly enterprise?: boolean;
  /** `state` values for absent (default `absent`). */
  readonly absent?: Record<string, unknown>;
  /** The outcome of the same task again, when it cannot be `ok`, and why. */
  readonly again?: { expect: Outcome; because: string };
  /** False for a module that cannot delete (the event module writes results only). */
  readonly deletes?: false;
}

/** The six steps of one resource's life. */
function lifecycle(l: Lifecycle): Task[] {
  const task = (step: string, module: string, args: Record<string, unknown>, expect: Outcome, because?: string): Task => ({
    name: `${l.id}: ${step}`,
    module: sensu(module),
    args,
    expect,
    ...(l.enterprise ? { enterprise: true } : {}),
    ...(because ? { because } : {}),
  });
  const created = { ...l.key, ...l.create };
  const tasks = [task('create', l.module, created, 'changed'), task('again', l.module, created, l.again?.expect ?? 'ok', l.again?.because)];
  if (l.modify) tasks.push(task('modify', l.module, { ...created, ...l.modify }, 'changed'));
  tasks.push(task('info', l.info, l.infoArgs ?? l.key, 'ok'));
  const absent = { ...l.key, ...(l.absent ?? { state: 'absent' }) };
  if (l.deletes !== false) tasks.push(task('delete', l.module, absent, 'changed'), task('delete again', l.module, absent, 'ok'));
  return tasks;
}

const named = (name: string, namespace: string | null = NS) => ({ name, ...(namespace ? { namespace } : {}) });
const SHA = 'a'.repeat(128);

/** Every module the community backend serves, in an order where each resource's dependencies exist. */
export const COMMUNITY: readonly Task[] = [
  ...lifecycle({ id: 'namespace', module: 'namespace', key: named(NS, null), create: {}, info: 'namespace_info', infoArgs: {} }).slice(0, 2),
  ...lifecycle({ id: 'namespace extra', module: 'namespace', key: named('ansible-extra', null), create: {}, info: 'namespace_info', infoArgs: {} }),
  ...lifecycle({
    id: 'asset',
    module: 'asset',
    key: named('a1'),
    create: { builds: [{ url: 'https://example.com/a1.tar.gz', sha512: SHA, filters: ["entity.system.os == 'linux'"] }] },
    modify: { builds: [{ url: 'https://example.com/a1-2.tar.gz', sha512: SHA }] },
    info: 'asset_info',
  }),
  ...lifecycle({
    id: 'check',
    module: 'check',
    key: named('c1'),
    create: { command: 'true', subscriptions: ['linux'], interval: 60, publish: true },
    modify: { interval: 30, timeout: 10 },
    info: 'check_info',
  }),
  ...lifecycle({
    id: 'entity',
    module: 'entity',
    key: named('e1'),
    create: { entity_class: 'proxy', subscriptions: ['web'] },
    modify: { subscriptions: ['web', 'db'] },
    info: 'entity_info',
  }),
  ...lifecycle({
    id: 'filter',
    module: 'filter',
    key: named('f1'),
    create: { action: 'allow', expressions: ['event.check.occurrences == 1'] },
    modify: { action: 'deny' },
    info: 'filter_info',
  }),
  ...lifecycle({
    id: 'hook',
    module: 'hook',
    key: named('h1'),
    create: { command: 'true', timeout: 10, stdin: false },
    modify: { timeout: 20 },
    info: 'hook_info',
  }),
  ...lifecycle({ id: 'mutator', module: 'mutator', key: named('m1'), create: { command: 'cat', timeout: 10 }, modify: { timeout: 20 }, info: 'mutator_info' }),
  ...lifecycle({ id: 'pipe handler', module: 'pipe_handler', key: named('ph1'), create: { command: 'cat' }, modify: { command: 'tee' }, info: 'handler_info' }),
  ...lifecycle({
    id: 'socket handler',
    module: 'socket_handler',
    key: named('sh1'),
    create: { type: 'tcp', host: '127.0.0.1', port: 4444 },
    modify: { port: 4445 },
    info: 'handler_info',
  }),
  ...lifecycle({
    id: 'handler set',
    module: 'handler_set',
    key: named('hs1'),
    create: { handlers: ['ph1'] },
    modify: { handlers: ['ph1', 'sh1'] },
    info: 'handler_info',
  }),
  ...lifecycle({
    id: 'silence',
    module: 'silence',
    key: { subscription: 'web', check: 'c1', namespace: NS },
    create: { reason: 'maintenance' },
    modify: { reason: 'longer maintenance' },
    info: 'silence_info',
  }),
  ...lifecycle({
    id: 'role',
    module: 'role',
    key: named('r1'),
    create: { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] },
    modify: { rules: [{ verbs: ['get', 'list'], resources: ['checks', 'entities'] }] },
    info: 'role_info',
  }),
  ...lifecycle({
    id: 'cluster role',
    module: 'cluster_role',
    key: named('cr1', null),
    create: { rules: [{ verbs: ['get', 'list'], resources: ['checks'] }] },
    modify: { rules: [{ verbs: ['get', 'list'], resources: ['checks', 'entities'] }] },
    info: 'cluster_role_info',
  }),
  ...lifecycle({
    id: 'role binding',
    module: 'role_binding',
    key: named('rb1'),
    create: { role: 'r1', groups: ['g1'] },
    modify: { users: ['alice'] },
    info: 'role_binding_info',
  }),
  ...lifecycle({
    id: 'cluster role binding',
    module: 'cluster_role_binding',
    key: named('crb1', null),
    create: { cluster_role: 'cr1', groups: ['g1'] },
    modify: { users: ['alice'] },
    info: 'cluster_role_binding_info',
  }),
  ...lifecycle({
    id: 'user',
    module: 'user',
    key: named('ansible-user', null),
    create: { password: 'first-pass-1', groups: ['g1'] },
    modify: { password: 'second-pass-2', groups: ['g1', 'g2'] },
    info: 'user_info',
    absent: { state: 'disabled' },
  }),
  // An event needs its entity and its check.
  ...lifecycle({ id: 'event entity', module: 'entity', key: named('ev-entity'), create: { entity_class: 'proxy' }, info: 'entity_info' }).slice(0, 1),
  ...lifecycle({
    id: 'event check',
    module: 'check',
    key: named('ev-check'),
    create: { command: 'true', interval: 60, subscriptions: ['x'] },
    info: 'check_info',
  }).slice(0, 1),
  ...lifecycle({
    id: 'event',
    module: 'event',
    key: { entity: 'ev-entity', check: 'ev-check', namespace: NS },
    create: { check_attributes: { status: 'ok', output: 'fine' } },
    // The module writes an event each time it runs: a new result is a change, on any backend.
    again: { expect: 'changed', because: 'the module writes a new event on every run' },
    modify: { check_attributes: { status: 'warning', output: 'hot' } },
    info: 'event_info',
    deletes: false,
  }),
  { name: 'built-in view: info', module: sensu('cluster_role_info'), args: { name: 'view' }, expect: 'ok' },
  { name: 'built-in cluster-admin binding: info', module: sensu('cluster_role_binding_info'), args: { name: 'cluster-admin' }, expect: 'ok' },
  // Listed (`tessen.get`): checkbridge sends no telemetry and starts opted out; a choice made is kept (and sends nothing).
  { name: 'tessen: disable', module: sensu('tessen'), args: { state: 'disabled' }, expect: 'ok', sensuGo: 'changed' },
  { name: 'tessen: disable again', module: sensu('tessen'), args: { state: 'disabled' }, expect: 'ok' },
  { name: 'tessen: enable', module: sensu('tessen'), args: { state: 'enabled' }, expect: 'changed' },
  { name: 'tessen: enable again', module: sensu('tessen'), args: { state: 'enabled' }, expect: 'ok' },
];

const LDAP_SERVER = { host: '127.0.0.1', group_search: { base_dn: 'dc=acme,dc=org' }, user_search: { base_dn: 'dc=acme,dc=org' } };
const SECRET_AGAIN = {
  expect: 'changed' as const,
  because: 'the module compares the secret it is given with the one served, which is REDACTED: checkbridge never serves a stored secret',
};

/** The enterprise modules checkbridge serves (the community backend answers them 404). */
export const ENTERPRISE: readonly Task[] = [
  ...lifecycle({
    id: 'ldap provider',
    module: 'ldap_auth_provider',
    key: named('openldap', null),
    create: { servers: [LDAP_SERVER] },
    modify: { servers: [{ ...LDAP_SERVER, port: 1389, security: 'insecure' }], groups_prefix: 'ldap' },
    info: 'auth_provider_info',
    enterprise: true,
  }),
  ...lifecycle({
    id: 'ad provider',
    module: 'ad_auth_provider',
    key: named('activedirectory', null),
    create: { servers: [LDAP_SERVER] },
    modify: { servers: [{ ...LDAP_SERVER, default_upn_domain: 'acme.org' }] },
    info: 'auth_provider_info',
    enterprise: true,
  }),
  ...lifecycle({
    id: 'oidc provider',
    module: 'oidc_auth_provider',
    key: named('oidc', null),
    create: { client_id: 'cid', client_secret: 'the-client-secret', server: 'https://oidc.example.com', username_claim: 'email' },
    modify: { groups_claim: 'groups', additional_scopes: ['groups'] },
    info: 'auth_provider_info',
    enterprise: true,
    again: SECRET_AGAIN,
  }),
  ...lifecycle({
    id: 'env provider',
    module: 'secrets_provider_env',
    key: {},
    create: {},
    info: 'secrets_provider_info',
    infoArgs: { name: 'env' },
    enterprise: true,
  })
    // The Env provider exists from the start (as in Sensu Go): creating it changes nothing.
    .slice(0, 2)
    .map((t) => ({ ...t, expect: 'ok' as const })),
  ...lifecycle({
    id: 'vault provider',
    module: 'secrets_provider_vault',
    key: named('vault', null),
    create: { address: 'https://vault.example.com:8200', token: 'the-vault-token', version: 'v2' },
    modify: { max_retries: 3, timeout: 30 },
    info: 'secrets_provider_info',
    enterprise: true,
    again: SECRET_AGAIN,
  }),
  ...lifecycle({
    id: 'secret',
    module: 'secret',
    key: named('s1'),
    create: { provider: 'env', id: 'HOME' },
    modify: { id: 'PATH' },
    info: 'secret_info',
    enterprise: true,
  }),
];

/** Sending back what is served (`REDACTED`) for a stored secret: no change, and the stored secret stays. */
export function sentBackAsServed(): Task[] {
  const vault = { name: 'vault-kept', address: 'https://vault.example.com:8200', version: 'v2' };
  const oidc = { name: 'oidc-kept', client_id: 'cid', server: 'https://oidc.example.com', username_claim: 'email' };
  const task = (name: string, module: string, args: Record<string, unknown>, expect: Outcome): Task => ({
    name,
    module: sensu(module),
    args,
    expect,
    enterprise: true,
  });
  return [
    task('vault kept: create', 'secrets_provider_vault', { ...vault, token: 'the-vault-token' }, 'changed'),
    task('vault kept: served token sent back', 'secrets_provider_vault', { ...vault, token: 'REDACTED' }, 'ok'),
    task('vault kept: modify, served token sent back', 'secrets_provider_vault', { ...vault, token: 'REDACTED', max_retries: 4 }, 'changed'),
    task('vault kept: again', 'secrets_provider_vault', { ...vault, token: 'REDACTED', max_retries: 4 }, 'ok'),
    task('vault kept: delete', 'secrets_provider_vault', { name: vault.name, state: 'absent' }, 'changed'),
    task('oidc kept: create', 'oidc_auth_provider', { ...oidc, client_secret: 'the-client-secret' }, 'changed'),
    task('oidc kept: served secret sent back', 'oidc_auth_provider', { ...oidc, client_secret: 'REDACTED' }, 'ok'),
    task('oidc kept: delete', 'oidc_auth_provider', { name: oidc.name, state: 'absent' }, 'changed'),
  ];
}

/** The datastore's life, pointed at `dsn` (a PostgreSQL the test started); its password is served as REDACTED. */
export function datastoreTasks(dsn: string, servedDsn: string): Task[] {
  return [
    ...lifecycle({
      id: 'datastore',
      module: 'datastore',
      key: named('pg', null),
      create: { dsn, pool_size: 5 },
      modify: { pool_size: 10 },
      info: 'datastore_info',
      enterprise: true,
      again: SECRET_AGAIN,
    }),
    ...[
      { name: 'datastore kept: create', args: { name: 'pg-kept', dsn, pool_size: 5 }, expect: 'changed' as const },
      { name: 'datastore kept: served DSN sent back', args: { name: 'pg-kept', dsn: servedDsn, pool_size: 5 }, expect: 'ok' as const },
      { name: 'datastore kept: modify, served DSN sent back', args: { name: 'pg-kept', dsn: servedDsn, pool_size: 6 }, expect: 'changed' as const },
      { name: 'datastore kept: again', args: { name: 'pg-kept', dsn: servedDsn, pool_size: 6 }, expect: 'ok' as const },
      { name: 'datastore kept: delete', args: { name: 'pg-kept', state: 'absent' }, expect: 'changed' as const },
    ].map((t) => ({ ...t, module: sensu('datastore'), enterprise: true })),
  ];
}

/** A playbook (JSON is YAML) running every task on localhost, each one's failure kept from stopping the rest. */
export function playbook(tasks: readonly Task[]): string {
  const play = {
    hosts: 'localhost',
    gather_facts: false,
    tasks: tasks.map((t) => ({ name: t.name, [t.module]: t.args, ignore_errors: true })),
  };
  return JSON.stringify([play], null, 1);
}
