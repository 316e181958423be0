// The JSON Sensu Go serves for each core/v2 message: its fields in order, as Go's encoding/json writes the struct.
// `name?` is omitted when empty (omitempty), `name!` is a struct held by value (its zero value is the struct with its
// own zero fields, never null), `name[]` is a list MarshalJSON turns from null into []; a bare name is always written.
const SERVED_SOURCE: Readonly<Record<string, string>> = {
  ObjectMeta: 'name? namespace? labels? annotations? created_by?',
  CheckConfig:
    'command? handlers[] high_flap_threshold interval low_flap_threshold publish runtime_assets subscriptions[] proxy_entity_name check_hooks stdin subdue ' +
    'cron? ttl timeout proxy_requests? round_robin output_metric_format output_metric_handlers env_vars metadata! max_output_size? discard_output? ' +
    'secrets output_metric_tags? pipelines[] output_metric_thresholds? subdues?',
  HookConfig: 'metadata! command? timeout stdin runtime_assets',
  Handler: 'metadata! type? mutator? command? timeout socket? handlers filters env_vars runtime_assets secrets',
  HandlerSocket: 'host? port',
  Mutator: 'metadata! command? timeout env_vars runtime_assets secrets type? eval?',
  EventFilter: 'metadata! action? expressions when? runtime_assets',
  Pipeline: 'metadata! workflows',
  PipelineWorkflow: 'name filters? mutator? handler',
  ResourceReference: 'name type api_version',
  Silenced: 'metadata! expire expire_on_resolve creator? check? reason? subscription? begin expire_at',
  Asset: 'url? sha512? filters builds metadata! headers',
  AssetBuild: 'url? sha512? filters headers',
  Entity: 'entity_class system! subscriptions last_seen deregister deregistration! user? redact? metadata! sensu_agent_version keepalive_handlers?',
  System:
    'hostname? os? platform? platform_family? platform_version? network! arch? arm_version? libc_type vm_system vm_role cloud_provider float_type? processes',
  Network: 'interfaces',
  NetworkInterface: 'name? mac? addresses',
  Deregistration: 'handler?',
  Process: 'name',
  Secret: 'name? secret?',
  ProxyRequests: 'entity_attributes splay splay_coverage',
  TimeWindowWhen: 'days!',
  TimeWindowDays: 'all? sunday? monday? tuesday? wednesday? thursday? friday? saturday?',
  TimeWindowTimeRange: 'begin end',
  TimeWindowRepeated: 'begin end repeat',
  MetricTag: 'name? value?',
  MetricThreshold: 'name tags thresholds null_status',
  MetricThresholdTag: 'name value',
  MetricThresholdRule: 'min max status',
  Role: 'rules metadata!',
  ClusterRole: 'rules metadata!',
  Rule: 'verbs resources resource_names',
  RoleBinding: 'subjects role_ref! metadata!',
  ClusterRoleBinding: 'subjects role_ref! metadata!',
  Subject: 'type name',
  RoleRef: 'type name',
};

/** How one field is written: omitted when empty, a struct by value, or a list never null. */
export interface ServedField {
  readonly name: string;
  readonly omitEmpty: boolean;
  readonly byValue: boolean;
  readonly neverNull: boolean;
}

/** Each message's served fields, in order, by its Go name. */
export const SERVED_FIELDS: ReadonlyMap<string, readonly ServedField[]> = new Map(
  Object.entries(SERVED_SOURCE).map(([kind, source]) => [
    kind,
    source.split(' ').map((token) => ({
      name: token.replace(/[?!]|\[\]$/g, ''),
      omitEmpty: token.endsWith('?'),
      byValue: token.endsWith('!'),
      neverNull: token.endsWith('[]'),
    })),
  ]),
);
