// The JSON types Sensu Go's clients decode (sensu/core v2 *.proto, as Go's encoding/json reads them): a value of the
// wrong type here makes `sensuctl` fail for everyone who lists it. Unknown fields are no concern of this table.
import type { Json } from '../json.js';

type Scalar = 'string' | 'bool' | 'int32' | 'int64' | 'uint32' | 'double';
/** A field's type: a scalar, a message of this table by name, a list of either, a map of strings, or check hooks. */
export type WireType = Scalar | { message: string } | { list: Scalar | { message: string } } | 'map<string,string>' | typeof HOOK_LISTS;
/** `check_hooks`: HookList's JSON is an object from a status or severity to hook names, `[{"critical": ["h"]}]`. */
export const HOOK_LISTS = '[]map<string,[]string>';
type Schema = Readonly<Record<string, WireType>>;

const m = (message: string) => ({ message });
const list = (of: Scalar | { message: string }) => ({ list: of });
const strings = list('string');

const META: Schema = { name: 'string', namespace: 'string', labels: 'map<string,string>', annotations: 'map<string,string>', created_by: 'string' };
const HOOK_CONFIG: Schema = { metadata: m('ObjectMeta'), command: 'string', timeout: 'uint32', stdin: 'bool', runtime_assets: strings };
// Fields CheckConfig and Check share.
const CHECK_CONFIG: Schema = {
  command: 'string',
  handlers: strings,
  high_flap_threshold: 'uint32',
  interval: 'uint32',
  low_flap_threshold: 'uint32',
  publish: 'bool',
  runtime_assets: strings,
  subscriptions: strings,
  proxy_entity_name: 'string',
  check_hooks: HOOK_LISTS,
  stdin: 'bool',
  subdue: m('TimeWindowWhen'),
  cron: 'string',
  ttl: 'int64',
  timeout: 'uint32',
  proxy_requests: m('ProxyRequests'),
  round_robin: 'bool',
  output_metric_format: 'string',
  output_metric_handlers: strings,
  env_vars: strings,
  metadata: m('ObjectMeta'),
  max_output_size: 'int64',
  discard_output: 'bool',
  secrets: list(m('Secret')),
  output_metric_tags: list(m('MetricTag')),
  pipelines: list(m('ResourceReference')),
  output_metric_thresholds: list(m('MetricThreshold')),
  subdues: list(m('TimeWindowRepeated')),
  fallback_pipeline: m('ResourceReference'),
  ttl_status: 'int32',
  asset_status: strings,
};
const RANGES = list(m('TimeWindowTimeRange'));

/** Each message type by its Go name. */
export const WIRE_TYPES: Readonly<Record<string, Schema>> = {
  ObjectMeta: META,
  Entity: {
    entity_class: 'string',
    system: m('System'),
    subscriptions: strings,
    last_seen: 'int64',
    deregister: 'bool',
    deregistration: m('Deregistration'),
    user: 'string',
    redact: strings,
    metadata: m('ObjectMeta'),
    sensu_agent_version: 'string',
    keepalive_handlers: strings,
  },
  System: {
    hostname: 'string',
    os: 'string',
    platform: 'string',
    platform_family: 'string',
    platform_version: 'string',
    network: m('Network'),
    arch: 'string',
    arm_version: 'int32',
    libc_type: 'string',
    vm_system: 'string',
    vm_role: 'string',
    cloud_provider: 'string',
    float_type: 'string',
    processes: list(m('Process')),
  },
  Process: { name: 'string' },
  Network: { interfaces: list(m('NetworkInterface')) },
  NetworkInterface: { name: 'string', mac: 'string', addresses: strings },
  Deregistration: { handler: 'string' },
  Event: {
    timestamp: 'int64',
    entity: m('Entity'),
    check: m('Check'),
    metrics: m('Metrics'),
    metadata: m('ObjectMeta'),
    id: 'string',
    sequence: 'int64',
    pipelines: list(m('ResourceReference')),
    fallback_pipeline: m('ResourceReference'),
  },
  CheckConfig: { ...CHECK_CONFIG, scheduler: 'string' },
  Check: {
    ...CHECK_CONFIG,
    duration: 'double',
    executed: 'int64',
    history: list(m('CheckHistory')),
    issued: 'int64',
    output: 'string',
    state: 'string',
    status: 'uint32',
    total_state_change: 'uint32',
    last_ok: 'int64',
    occurrences: 'int64',
    occurrences_watermark: 'int64',
    silenced: strings,
    hooks: list(m('Hook')),
    is_silenced: 'bool',
    scheduler: 'string',
    processed_by: 'string',
  },
  CheckHistory: { status: 'uint32', executed: 'int64' },
  HookConfig: HOOK_CONFIG,
  Hook: { ...HOOK_CONFIG, duration: 'double', executed: 'int64', issued: 'int64', output: 'string', status: 'int32' },
  ProxyRequests: { entity_attributes: strings, splay: 'bool', splay_coverage: 'uint32' },
  TimeWindowWhen: { days: m('TimeWindowDays') },
  TimeWindowDays: { all: RANGES, sunday: RANGES, monday: RANGES, tuesday: RANGES, wednesday: RANGES, thursday: RANGES, friday: RANGES, saturday: RANGES },
  TimeWindowTimeRange: { begin: 'string', end: 'string' },
  TimeWindowRepeated: { begin: 'string', end: 'string', repeat: strings },
  Secret: { name: 'string', secret: 'string' },
  ResourceReference: { name: 'string', type: 'string', api_version: 'string' },
  MetricThreshold: { name: 'string', tags: list(m('MetricThresholdTag')), thresholds: list(m('MetricThresholdRule')), null_status: 'uint32' },
  MetricThresholdTag: { name: 'string', value: 'string' },
  MetricThresholdRule: { min: 'string', max: 'string', status: 'uint32' },
  Metrics: { handlers: strings, points: list(m('MetricPoint')) },
  MetricPoint: { name: 'string', value: 'double', timestamp: 'int64', tags: list(m('MetricTag')) },
  MetricTag: { name: 'string', value: 'string' },
  Handler: {
    metadata: m('ObjectMeta'),
    type: 'string',
    mutator: 'string',
    command: 'string',
    timeout: 'uint32',
    socket: m('HandlerSocket'),
    handlers: strings,
    filters: strings,
    env_vars: strings,
    runtime_assets: strings,
    secrets: list(m('Secret')),
  },
  HandlerSocket: { host: 'string', port: 'uint32' },
  Mutator: {
    metadata: m('ObjectMeta'),
    command: 'string',
    timeout: 'uint32',
    env_vars: strings,
    runtime_assets: strings,
    secrets: list(m('Secret')),
    type: 'string',
    eval: 'string',
  },
  EventFilter: { metadata: m('ObjectMeta'), action: 'string', expressions: strings, when: m('TimeWindowWhen'), runtime_assets: strings },
  Pipeline: { metadata: m('ObjectMeta'), workflows: list(m('PipelineWorkflow')) },
  PipelineWorkflow: { name: 'string', filters: list(m('ResourceReference')), mutator: m('ResourceReference'), handler: m('ResourceReference') },
  Silenced: {
    metadata: m('ObjectMeta'),
    expire: 'int64',
    expire_on_resolve: 'bool',
    creator: 'string',
    check: 'string',
    reason: 'string',
    subscription: 'string',
    begin: 'int64',
    expire_at: 'int64',
  },
  Asset: { url: 'string', sha512: 'string', filters: strings, builds: list(m('AssetBuild')), metadata: m('ObjectMeta'), headers: 'map<string,string>' },
  AssetBuild: { url: 'string', sha512: 'string', filters: strings, headers: 'map<string,string>' },
  Role: { rules: list(m('Rule')), metadata: m('ObjectMeta') },
  ClusterRole: { rules: list(m('Rule')), metadata: m('ObjectMeta') },
  Rule: { verbs: strings, resources: strings, resource_names: strings },
  RoleBinding: { subjects: list(m('Subject')), role_ref: m('RoleRef'), metadata: m('ObjectMeta') },
  ClusterRoleBinding: { subjects: list(m('Subject')), role_ref: m('RoleRef'), metadata: m('ObjectMeta') },
  Subject: { type: 'string', name: 'string' },
  RoleRef: { type: 'string', name: 'string' },
};

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const isNames = (v: unknown) => v === null || (Array.isArray(v) && v.every((name) => name === null || typeof name === 'string'));
/** Whether a value is check hooks: a list of objects from a status or severity to hook names. */
export const isHookLists = (value: unknown) =>
  Array.isArray(value) && value.every((entry) => entry === null || (isObject(entry) && Object.values(entry).every(isNames)));
const intIn = (min: number, max: number) => (value: unknown) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
const SCALARS: Readonly<Record<Scalar, { ok: (value: unknown) => boolean; says: string }>> = {
  string: { ok: (v) => typeof v === 'string', says: 'a string' },
  bool: { ok: (v) => typeof v === 'boolean', says: 'true or false' },
  int32: { ok: intIn(-(2 ** 31), 2 ** 31 - 1), says: 'a 32-bit integer' },
  // 2 ** 63 itself is past Go's int64, and every double at or above it is too.
  int64: { ok: (v) => intIn(-(2 ** 63), 2 ** 63)(v) && (v as number) < 2 ** 63, says: 'a 64-bit integer' },
  uint32: { ok: intIn(0, 2 ** 32 - 1), says: 'an unsigned 32-bit integer' },
  double: { ok: (v) => typeof v === 'number' && Number.isFinite(v), says: 'a number' },
};

// What a value of a type must be, for the message: "an object", "a list of strings"...
function says(type: WireType): string {
  if (type === HOOK_LISTS) return 'a list of objects of lists of hook names';
  if (typeof type === 'string') return type === 'map<string,string>' ? 'an object of strings' : SCALARS[type].says;
  if ('message' in type) return 'an object';
  const of = type.list;
  return typeof of === 'string' ? `a list of ${SCALARS[of].says.replace(/^an? /, '')}s` : 'a list of objects';
}

// null decodes to the zero value of any type in Go: it is never a problem. The path is built only for a problem: this
// runs on every event a door takes.
type Path = () => string;
function problemAt(type: WireType, value: unknown, path: Path): string | null {
  if (value === null || value === undefined) return null;
  const wrong = () => `${path()} must be ${says(type)}`;
  if (type === 'map<string,string>') return isObject(value) && Object.values(value).every((v) => v === null || typeof v === 'string') ? null : wrong();
  if (type === HOOK_LISTS) return isHookLists(value) ? null : wrong();
  if (typeof type === 'string') return SCALARS[type].ok(value) ? null : wrong();
  if ('message' in type) return isObject(value) ? messageProblem(type.message, value, path) : wrong();
  if (!Array.isArray(value)) return wrong();
  for (let index = 0; index < value.length; index++) {
    const problem = problemAt(type.list, value[index], () => `${path()}[${index}]`);
    if (problem) return typeof type.list === 'string' ? wrong() : problem;
  }
  return null;
}

// A value sets a few of the many fields its schema knows: its own are checked first, and only when one is wrong are the
// fields walked in the schema's order, so the problem named is the same.
function messageProblem(kind: string, value: Json, path: Path): string | null {
  const schema = WIRE_TYPES[kind]!;
  for (const field of Object.getOwnPropertyNames(value)) {
    if (Object.hasOwn(schema, field) && problemAt(schema[field]!, value[field], () => `${path()}.${field}`)) return firstProblem(schema, value, path);
  }
  return null;
}

function firstProblem(schema: Readonly<Record<string, WireType>>, value: Json, path: Path): string | null {
  for (const field in schema) {
    if (!Object.hasOwn(value, field)) continue;
    const problem = problemAt(schema[field]!, value[field], () => `${path()}.${field}`);
    if (problem) return problem;
  }
  return null;
}

/**
 * The first field of `value` Sensu Go's clients could not decode as a `kind` (a message of WIRE_TYPES), named by
 * its path from the kind (`entity.metadata.labels must be an object of strings`), or null.
 */
export function typeProblem(kind: string, value: unknown): string | null {
  if (!Object.hasOwn(WIRE_TYPES, kind)) throw new Error(`no wire type ${kind}`);
  return problemAt({ message: kind }, value, () => kind.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (head) => head.toLowerCase()));
}
